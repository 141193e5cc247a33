//! Campaigns: sweeps of one configuration (every identity field but the date) measured on
//! different dates, as a history file of a benchmark project holds them. The deployment menu
//! and the chart show the newest campaign of each configuration; the older ones are one step
//! away (the campaign menu), so hundreds of sweeps of one model stay readable.

use std::collections::HashMap;

use crate::core::model::source::Source;

/// A model with more sweeps than this has them grouped: the deployment menu lists each
/// configuration once (its newest campaign), in groups by GPU type and count, and the chart
/// draws from those; with fewer, every sweep is listed (a screenful).
pub const GROUP_ABOVE: usize = 24;

/// The configurations of `of_model` (a model's sweeps in menu order, [`Source::sweeps_of`]:
/// GPU type, count, newest date first): each the indices of its campaigns, newest first, in
/// the order their newest campaign comes in `of_model`. Linear in the number of sweeps.
pub fn configurations(source: &Source, of_model: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for &i in of_model {
        let slot = *at.entry(source.configuration_of(i)).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[slot].push(i);
    }
    out
}

/// True when a model with this many sweeps has them grouped into configurations.
pub fn is_grouped(sweeps: usize) -> bool {
    sweeps > GROUP_ABOVE
}

/// The deployment menu's entries for `of_model` (as [`configurations`] takes it): its
/// configurations when the model's sweeps are grouped ([`is_grouped`]), else each sweep alone.
pub fn menu_entries(source: &Source, of_model: &[usize]) -> Vec<Vec<usize>> {
    if is_grouped(of_model.len()) {
        configurations(source, of_model)
    } else {
        of_model.iter().map(|&i| vec![i]).collect()
    }
}

/// The sweep each configuration shows: its newest campaign, or `selected` where it is one of
/// that configuration's campaigns.
pub fn shown(configurations: &[Vec<usize>], selected: Option<usize>) -> Vec<usize> {
    configurations
        .iter()
        .filter_map(|campaigns| {
            selected
                .filter(|s| campaigns.contains(s))
                .or_else(|| campaigns.first().copied())
        })
        .collect()
}

/// The campaigns of the configuration `selected` belongs to, newest first (just `selected` when
/// it has no other).
pub fn campaigns_of(configurations: &[Vec<usize>], selected: usize) -> &[usize] {
    configurations
        .iter()
        .find(|c| c.contains(&selected))
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::{import, InputFile};

    fn source() -> Source {
        let csv = "model,gpu,num_gpus,framework,date,concurrency,output_tok_s,p50_itl_ms\n\
                   m,H100,1,vllm,2026-03-02,8,800,10\n\
                   m,H100,1,vllm,2026-08-17,8,900,9\n\
                   m,H100,1,sglang,2026-03-02,8,700,11\n\
                   m,B200,1,vllm,2026-05-11,8,1500,6\n\
                   m,H100,1,vllm,2026-05-11,8,850,9.5\n";
        let files = [InputFile {
            name: "h.csv".to_string(),
            text: csv.to_string(),
        }];
        import(&files).unwrap().source
    }

    #[test]
    fn campaigns_of_one_configuration_are_grouped_newest_first() {
        let s = source();
        let all = s.sweeps_of(0);
        let configs = configurations(&s, &all);
        let dates = |c: &[usize]| -> Vec<String> {
            c.iter()
                .map(|&i| {
                    format!(
                        "{} {} {}",
                        s.sweeps[i].deployment.gpu,
                        s.sweeps[i].deployment.engine.clone().unwrap_or_default(),
                        s.sweeps[i].deployment.date.clone().unwrap_or_default()
                    )
                })
                .collect()
        };
        let read: Vec<Vec<String>> = configs.iter().map(|c| dates(c)).collect();
        assert_eq!(
            read,
            [
                vec!["B200 vllm 2026-05-11".to_string()],
                vec![
                    "H100 vllm 2026-08-17".to_string(),
                    "H100 vllm 2026-05-11".to_string(),
                    "H100 vllm 2026-03-02".to_string()
                ],
                vec!["H100 sglang 2026-03-02".to_string()],
            ]
        );
        // The menu shows the newest of each, or the selected older campaign in its place.
        let older = configs[1][2];
        assert_eq!(
            shown(&configs, Some(older)),
            [configs[0][0], older, configs[2][0]]
        );
        assert_eq!(campaigns_of(&configs, older), configs[1].as_slice());
        assert_eq!(campaigns_of(&configs, configs[0][0]).len(), 1);
    }
}
