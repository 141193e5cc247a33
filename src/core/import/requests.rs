//! A level's statistics from its per-request records, for files that write each request's
//! figures (LLMPerf individual responses): one value per completed request, summarised as the
//! tools themselves do (mean; percentiles by linear interpolation between the closest ranks,
//! numpy's and pandas' default), so a fixture reproduces the tool's own summary.

use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// The p-th percentile (0 to 100) of `sorted` (ascending, not empty) by linear interpolation:
/// rank (n − 1) × p / 100 between the two closest values.
pub(crate) fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let rank = last as f64 * p / 100.0;
    let below = rank.floor() as usize;
    let above = rank.ceil() as usize;
    let (a, b) = (*sorted.get(below)?, *sorted.get(above)?);
    Some(a + (b - a) * (rank - below as f64))
}

/// The statistics of `metric` over per-request values in ms (non-finite and non-positive
/// values left out): mean, p50, p90, p95, p99.
pub(crate) fn summarised(metric: Metric, values: &[f64]) -> Vec<(Statistic, f64)> {
    let mut sorted: Vec<f64> = values
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    if sorted.is_empty() {
        return Vec::new();
    }
    sorted.sort_by(f64::total_cmp);
    Aggregate::ALL
        .into_iter()
        .filter_map(|a| {
            let stat = Statistic::from_parts(metric, a)?;
            let value = match a.percentile() {
                None => sorted.iter().sum::<f64>() / sorted.len() as f64,
                Some(p) => percentile(&sorted, f64::from(p))?,
            };
            Some((stat, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_between_the_closest_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&v, 50.0), Some(2.5));
        assert_eq!(percentile(&v, 90.0), Some(3.7));
        assert_eq!(percentile(&v, 100.0), Some(4.0));
        assert_eq!(percentile(&[7.0], 99.0), Some(7.0));
        assert_eq!(percentile(&[], 50.0), None);
        let stats = summarised(Metric::Tpot, &[4.0, 1.0, f64::NAN, 3.0, 2.0, 0.0]);
        assert_eq!(stats[0], (Statistic::TpotMean, 2.5));
        assert_eq!(stats[1], (Statistic::TpotP50, 2.5));
        assert!(summarised(Metric::Tpot, &[0.0]).is_empty());
    }
}
