//! What went wrong, without what it names: a [`RowError`]'s variant alone ([`RowErrorKind`]),
//! for tests and for grouping.

use super::RowError;

/// What went wrong: a [`RowError`]'s variant without its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowErrorKind {
    /// [`RowError::NotJson`].
    NotJson,
    /// [`RowError::NotAnObject`].
    NotAnObject,
    /// [`RowError::NumberOutOfRange`].
    NumberOutOfRange,
    /// [`RowError::Missing`].
    Missing,
    /// [`RowError::NoLevel`].
    NoLevel,
    /// [`RowError::NotANumber`].
    NotANumber,
    /// [`RowError::NotPositive`].
    NotPositive,
    /// [`RowError::AllRequestsFailed`].
    AllRequestsFailed,
    /// [`RowError::NotATimeUnit`].
    NotATimeUnit,
    /// [`RowError::UnknownColumn`].
    UnknownColumn,
    /// [`RowError::NoDataRows`].
    NoDataRows,
    /// [`RowError::UnreadableCsv`].
    UnreadableCsv,
    /// [`RowError::NotRecognised`].
    NotRecognised,
    /// [`RowError::LooksLikeButNoLevel`].
    LooksLikeButNoLevel,
    /// [`RowError::LooksLikeButNoThroughput`].
    LooksLikeButNoThroughput,
    /// [`RowError::PercentilesWithoutSummary`].
    PercentilesWithoutSummary,
    /// [`RowError::PercentilesAmbiguous`].
    PercentilesAmbiguous,
    /// [`RowError::OutOfRange`].
    OutOfRange,
    /// [`RowError::TooManyRows`].
    TooManyRows,
    /// [`RowError::UnusableLatencies`].
    UnusableLatencies,
    /// [`RowError::NoFile`].
    NoFile,
    /// [`RowError::FileTooLarge`].
    FileTooLarge,
    /// [`RowError::ImportTooLarge`].
    ImportTooLarge,
    /// [`RowError::PastLimit`].
    PastLimit,
    /// [`RowError::TooManySweeps`].
    TooManySweeps,
    /// [`RowError::TextCut`].
    TextCut,
    /// [`RowError::MoreLikeThese`].
    MoreLikeThese,
    /// [`RowError::NotText`].
    NotText,
    /// [`RowError::Unreadable`].
    Unreadable,
    /// [`RowError::UnreadableDate`].
    UnreadableDate,
    /// [`RowError::Empty`].
    Empty,
    /// [`RowError::Skipped`].
    Skipped,
    /// [`RowError::LeftOut`].
    LeftOut,
    /// [`RowError::UnsupportedVersion`].
    UnsupportedVersion,
    /// [`RowError::ResponsesWithoutSummary`].
    ResponsesWithoutSummary,
    /// [`RowError::ToolGoodput`].
    ToolGoodput,
    /// [`RowError::GuideLlmCsv`].
    GuideLlmCsv,
    /// [`RowError::NulByte`].
    NulByte,
    /// [`RowError::TooManyValues`].
    TooManyValues,
    /// [`RowError::Yaml`].
    Yaml,
    /// [`RowError::RequestsNotMeasured`].
    RequestsNotMeasured,
    /// [`RowError::NotWhole`].
    NotWhole,
    /// [`RowError::RoleWithoutGpus`].
    RoleWithoutGpus,
    /// [`RowError::RolesDoNotAddUp`].
    RolesDoNotAddUp,
    /// [`RowError::DecodeRoleEnergy`].
    DecodeRoleEnergy,
    /// [`RowError::GpusDoNotAddUp`].
    GpusDoNotAddUp,
    /// [`RowError::SignalsWithoutLevel`].
    SignalsWithoutLevel,
    /// [`RowError::SignalOutOfRange`].
    SignalOutOfRange,
    /// [`RowError::SignalUnit`].
    SignalUnit,
}

impl RowErrorKind {
    /// True for what an import says without anything being wrong: a file of a known tool that
    /// holds no level by design, a YAML file beside the reports (a run's settings, or a report's
    /// YAML twin), a tool's own figures. Never a reason to fail a strict run.
    pub fn is_note(self) -> bool {
        matches!(
            self,
            RowErrorKind::Skipped
                | RowErrorKind::ToolGoodput
                | RowErrorKind::Yaml
                | RowErrorKind::DecodeRoleEnergy
        )
    }

    /// The hook of a problem the page lists among the warnings, not the errors: the import is
    /// read, and something in it was left out (a column it does not read, rows or sweeps past
    /// a limit); `None` for the others.
    pub fn warning_hook(self) -> Option<&'static str> {
        match self {
            RowErrorKind::UnknownColumn => Some("unknown-column"),
            RowErrorKind::TooManyRows => Some("rows-left-out"),
            RowErrorKind::TooManySweeps => Some("sweeps-left-out"),
            RowErrorKind::RequestsNotMeasured => Some("requests-not-measured"),
            _ => None,
        }
    }
}

impl RowError {
    /// The variant alone.
    pub fn kind(&self) -> RowErrorKind {
        match self {
            RowError::NotJson { .. } => RowErrorKind::NotJson,
            RowError::NotAnObject => RowErrorKind::NotAnObject,
            RowError::NumberOutOfRange { .. } => RowErrorKind::NumberOutOfRange,
            RowError::Missing { .. } => RowErrorKind::Missing,
            RowError::NoLevel { .. } => RowErrorKind::NoLevel,
            RowError::NotANumber { .. } => RowErrorKind::NotANumber,
            RowError::NotPositive { .. } => RowErrorKind::NotPositive,
            RowError::AllRequestsFailed { .. } => RowErrorKind::AllRequestsFailed,
            RowError::NotATimeUnit { .. } => RowErrorKind::NotATimeUnit,
            RowError::UnknownColumn { .. } => RowErrorKind::UnknownColumn,
            RowError::NoDataRows => RowErrorKind::NoDataRows,
            RowError::UnreadableCsv { .. } => RowErrorKind::UnreadableCsv,
            RowError::NotRecognised { .. } | RowError::NoKeys { .. } => RowErrorKind::NotRecognised,
            RowError::LooksLikeButNoLevel { .. } => RowErrorKind::LooksLikeButNoLevel,
            RowError::LooksLikeButNoThroughput { .. } => RowErrorKind::LooksLikeButNoThroughput,
            RowError::PercentilesWithoutSummary => RowErrorKind::PercentilesWithoutSummary,
            RowError::PercentilesAmbiguous { .. } => RowErrorKind::PercentilesAmbiguous,
            RowError::OutOfRange { .. } => RowErrorKind::OutOfRange,
            RowError::TooManyRows { .. } => RowErrorKind::TooManyRows,
            RowError::UnusableLatencies { .. } => RowErrorKind::UnusableLatencies,
            RowError::NoFile => RowErrorKind::NoFile,
            RowError::FileTooLarge { .. } => RowErrorKind::FileTooLarge,
            RowError::ImportTooLarge { .. } => RowErrorKind::ImportTooLarge,
            RowError::PastLimit { .. } => RowErrorKind::PastLimit,
            RowError::TooManySweeps { .. } => RowErrorKind::TooManySweeps,
            RowError::TextCut { .. } => RowErrorKind::TextCut,
            RowError::MoreLikeThese { .. } => RowErrorKind::MoreLikeThese,
            RowError::NotText => RowErrorKind::NotText,
            RowError::Unreadable { .. } => RowErrorKind::Unreadable,
            RowError::UnreadableDate { .. } => RowErrorKind::UnreadableDate,
            RowError::Empty => RowErrorKind::Empty,
            RowError::Skipped { .. } => RowErrorKind::Skipped,
            RowError::LeftOut { .. } => RowErrorKind::LeftOut,
            RowError::SignalsWithoutLevel { .. } => RowErrorKind::SignalsWithoutLevel,
            RowError::SignalOutOfRange { .. } => RowErrorKind::SignalOutOfRange,
            RowError::SignalUnit { .. } => RowErrorKind::SignalUnit,
            RowError::UnsupportedVersion { .. } => RowErrorKind::UnsupportedVersion,
            RowError::ResponsesWithoutSummary { .. } => RowErrorKind::ResponsesWithoutSummary,
            RowError::ToolGoodput { .. } => RowErrorKind::ToolGoodput,
            RowError::GuideLlmCsv => RowErrorKind::GuideLlmCsv,
            RowError::NulByte { .. } => RowErrorKind::NulByte,
            RowError::TooManyValues { .. } => RowErrorKind::TooManyValues,
            RowError::RequestsNotMeasured { .. } => RowErrorKind::RequestsNotMeasured,
            RowError::Yaml | RowError::YamlTwin { .. } => RowErrorKind::Yaml,
            RowError::NotWhole { .. } => RowErrorKind::NotWhole,
            RowError::RoleWithoutGpus { .. } => RowErrorKind::RoleWithoutGpus,
            RowError::RolesDoNotAddUp { .. } => RowErrorKind::RolesDoNotAddUp,
            RowError::DecodeRoleEnergy { .. } => RowErrorKind::DecodeRoleEnergy,
            RowError::GpusDoNotAddUp { .. } => RowErrorKind::GpusDoNotAddUp,
        }
    }
}
