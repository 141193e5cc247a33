//! The exit status, ranked by severity: of several, the worst wins.

use std::process::ExitCode;

use llm_slo_planner::core::plan::planner::Status;

/// How the command ends, from the mildest to the worst (the order `max` picks the worst by):
/// `NoData` (3) is milder than `Fail` (1), which is milder than `BadInput` (2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: `ok` or `all-meet`.
    Ok,
    /// 3: `no-data`: the SLO cannot be judged on the data.
    NoData,
    /// 1: `unattainable`, or a gate (`--require-level`, `--max-gpus`, `--fail-on-flag`) failed.
    Fail,
    /// 2: a bad parameter or input, or no usable row.
    BadInput,
}

impl Exit {
    /// The exit status of a plan's status.
    pub fn of_status(status: &Status) -> Self {
        match status {
            Status::Ok | Status::AllMeet => Exit::Ok,
            Status::Unattainable => Exit::Fail,
            Status::NoData { .. } => Exit::NoData,
        }
    }

    /// The process's exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Fail => 1,
            Exit::BadInput => 2,
            Exit::NoData => 3,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worst of exit codes, as `Exit` ranks them.
    fn worst(codes: &[Exit]) -> u8 {
        codes.iter().copied().fold(Exit::Ok, Exit::max).code()
    }

    #[test]
    fn the_worst_status_ranks_bad_input_then_unattainable_then_no_data() {
        use Exit::{BadInput, Fail, NoData, Ok};
        assert_eq!(worst(&[Ok, NoData, Fail, Ok]), 1);
        assert_eq!(worst(&[Ok, NoData, Ok]), 3);
        assert_eq!(worst(&[Fail, BadInput, NoData]), 2);
        assert_eq!(worst(&[Ok, Ok]), 0);
    }
}
