//! A sweep's levels from its runs: the runs at one level grouped, each figure the worst of the
//! runs that report it, with how many did (see [`Level`]).

use super::{Figure, Level, RoleFigures, Row, Statistic};

/// Which way a figure's worst lies.
#[derive(Clone, Copy)]
enum Worst {
    High,
    Low,
}

/// The worse of two figures `way`; the one reported where the other is not.
fn worse(a: Option<f64>, b: Option<f64>, way: Worst) -> Option<f64> {
    match (a, b, way) {
        (Some(x), Some(y), Worst::High) => Some(x.max(y)),
        (Some(x), Some(y), Worst::Low) => Some(x.min(y)),
        (x, y, _) => x.or(y),
    }
}

/// The levels of `rows` (sorted by level): each run of a level absorbed into it in turn.
pub(super) fn group_levels(rows: &[Row]) -> Vec<Level> {
    let mut levels: Vec<Level> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match levels.last_mut() {
            Some(level) if level.level == row.level => absorb(level, i, row),
            _ => {
                let mut level = Level {
                    level: row.level,
                    throughput_tok_s: row.throughput_tok_s,
                    ..Level::default()
                };
                absorb(&mut level, i, row);
                levels.push(level);
            }
        }
    }
    levels
}

/// Adds the run `row` (at `index` in the sweep's rows) to `level`: its index, and each figure
/// the worse of the two where both report it.
fn absorb(level: &mut Level, index: usize, row: &Row) {
    level.row_indices.push(index);
    level.throughput_tok_s = level.throughput_tok_s.min(row.throughput_tok_s);
    level.avg_batch_size = worse(level.avg_batch_size, row.avg_batch_size, Worst::Low);
    level.avg_output_len = worse(level.avg_output_len, row.avg_output_len, Worst::High);
    level.avg_input_len = worse(level.avg_input_len, row.avg_input_len, Worst::High);
    level.input_tok_s = worse(level.input_tok_s, row.input_tok_s, Worst::Low);
    level.roles = RoleFigures {
        prefill_power_w: worse(
            level.roles.prefill_power_w,
            row.roles.prefill_power_w,
            Worst::High,
        ),
        decode_power_w: worse(
            level.roles.decode_power_w,
            row.roles.decode_power_w,
            Worst::High,
        ),
        decode_energy_per_token_j: worse(
            level.roles.decode_energy_per_token_j,
            row.roles.decode_energy_per_token_j,
            Worst::High,
        ),
    };
    level.power_w = worse(level.power_w, row.power_w, Worst::High);
    if let Some((w, kind)) = row.power_peak {
        if level.power_peak.is_none_or(|(worst, _)| w > worst) {
            level.power_peak = Some((w, kind));
        }
    }
    level.energy_per_request_j = worse(
        level.energy_per_request_j,
        row.energy_per_request_j,
        Worst::High,
    );
    level.served_req_s = worse(level.served_req_s, row.served_req_s, Worst::Low);
    if let Some(share) = row.failed_share() {
        if level.failed_share().is_none_or(|worst| share > worst) {
            level.requests = Some((row.completed_requests, row.failed_requests));
        }
    }
    if let Some(j) = row.energy_per_token_j {
        if level.energy_per_token_j.is_none_or(|worst| j > worst) {
            level.energy_per_token_j = Some(j);
            level.energy_basis = row.energy_basis;
        }
    }
    for stat in Statistic::ALL {
        let i = stat.index();
        level.latency_ms[i] = worse(level.latency_ms[i], row.latency_ms(stat), Worst::High);
    }
    let figures = Statistic::ALL.into_iter().map(Figure::Latency).chain([
        Figure::AvgBatch,
        Figure::OutputLen,
        Figure::Power,
        Figure::EnergyPerToken,
        Figure::EnergyPerRequest,
        Figure::Served,
    ]);
    for figure in figures {
        if figure.of(row).is_some() {
            level.runs[figure.index()] += 1;
        }
    }
}
