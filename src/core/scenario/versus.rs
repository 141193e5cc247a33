//! The comparison a link asks for: the candidate B (`vs`), named by the selectors a link uses to
//! pick a deployment and its source, as one nested query string; and the tolerance (`tol`).

use super::resolve::{resolve_config, resolve_deployment};
use super::values::{number, parse_gpus, Accepts, ValueError};
use super::Picked;
use crate::core::import::sources::DEFAULT_SOURCE;
use crate::core::model::source::Source;
use crate::core::plan::ab::{DEFAULT_TOL_PCT, MAX_TOL_PCT};

/// The candidate B of a comparison, as a link names it: A's model, on this GPU type and count,
/// in this configuration, in source `src` (`None`: A's source). A selector left out is resolved
/// as a link resolves it for A (H100 else the model's first GPU, the fewest GPUs, the newest
/// configuration).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vs {
    /// B's source id; `None`: A's.
    pub src: Option<String>,
    /// GPU type.
    pub gpu: Option<String>,
    /// GPUs per replica.
    pub gpus: Option<u32>,
    /// The sweep's `cfg` (what tells it apart, as a link's `cfg`).
    pub cfg: Option<String>,
}

impl Vs {
    /// Reads a `vs` value, its percent-encoding already undone: `gpu=B200&gpus=1`, with the keys
    /// `src`, `gpu`, `gpus`, `cfg` (each at most once, one at least).
    ///
    /// Errors: [`Accepts::Candidate`] for an empty value, an unknown or repeated key, or an empty
    /// selector; [`Accepts::WholeGpus`] for a `gpus` that is not a whole number of GPUs.
    pub fn parse(text: &str) -> Result<Vs, ValueError> {
        let wrong = || ValueError::not(Accepts::Candidate, text);
        let mut vs = Vs::default();
        for (key, value) in form_urlencoded::parse(text.trim().as_bytes()) {
            let value = value.trim();
            if value.is_empty() {
                return Err(wrong());
            }
            let slot_empty = match key.as_ref() {
                "src" => set(&mut vs.src, value.to_string()),
                "gpu" => set(&mut vs.gpu, value.to_string()),
                "cfg" => set(&mut vs.cfg, value.to_string()),
                "gpus" => set(&mut vs.gpus, parse_gpus(value)?),
                _ => false,
            };
            if !slot_empty {
                return Err(wrong());
            }
        }
        if vs == Vs::default() {
            return Err(wrong());
        }
        Ok(vs)
    }

    /// The value as a link writes it, before its own percent-encoding: `gpu=B200&gpus=1`.
    pub fn write(&self) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        let gpus = self.gpus.map(|n| n.to_string());
        for (key, value) in [
            ("src", &self.src),
            ("gpu", &self.gpu),
            ("gpus", &gpus),
            ("cfg", &self.cfg),
        ] {
            if let Some(value) = value {
                out.append_pair(key, value);
            }
        }
        out.finish()
    }

    /// The selectors naming sweep `sweep_index` of `source` (in A's source when `src` is
    /// `None`).
    pub fn of_sweep(source: &Source, sweep_index: usize, src: Option<String>) -> Option<Vs> {
        let sweep = source.sweeps.get(sweep_index)?;
        Some(Vs {
            src,
            gpu: Some(sweep.deployment.gpu.clone()),
            gpus: sweep.deployment.num_gpus,
            cfg: source.sweep_cfg(sweep_index).map(str::to_string),
        })
    }

    /// True when B is in the data shown, whose id is `shown` (`None`: the default source).
    pub fn in_shown(&self, shown: Option<&str>) -> bool {
        let id = |src: Option<&str>| src.unwrap_or(DEFAULT_SOURCE).to_string();
        self.src.is_none() || id(self.src.as_deref()) == id(shown)
    }

    /// The sweep of `source` these selectors name for model `model_id`, resolved as a link
    /// resolves its deployment; `None` when a selector names nothing measured (no fallback: a
    /// comparison with another sweep than the one asked would mislead).
    pub fn resolve(&self, source: &Source, model_id: &str) -> Option<usize> {
        let model_index = source.model_index(model_id)?;
        let mut errors = Vec::new();
        let (gpu, num_gpus) = resolve_deployment(
            source,
            model_index,
            self.gpu.clone(),
            self.gpus,
            &mut errors,
        );
        let cfg = resolve_config(
            source,
            model_index,
            &gpu,
            num_gpus,
            self.cfg.clone(),
            &mut errors,
        );
        if !errors.is_empty() {
            return None;
        }
        Picked {
            model_id: model_id.to_string(),
            gpu,
            num_gpus,
            cfg,
        }
        .sweep_index(source)
    }
}

/// Sets an empty `slot` to `value`; false when it was set already.
fn set<T>(slot: &mut Option<T>, value: T) -> bool {
    let was_empty = slot.is_none();
    if was_empty {
        *slot = Some(value);
    }
    was_empty
}

/// Parses the comparison's tolerance (`tol`), percent: a number from 0 to 50.
///
/// Errors: [`Accepts::Tolerance`] with (a shortened copy of) the text.
pub fn parse_tol(text: &str) -> Result<f64, ValueError> {
    number(text)
        .filter(|t| (0.0..=MAX_TOL_PCT).contains(t))
        .ok_or_else(|| ValueError::not(Accepts::Tolerance, text))
}

/// The comparison a scenario asks for: a candidate B, and the tolerance of the verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Versus {
    /// The candidate (URL `vs`); `None`: no comparison.
    pub vs: Option<Vs>,
    /// The verdict's tolerance, percent (URL `tol`, 0 to 50).
    pub tol_pct: f64,
}

impl Default for Versus {
    fn default() -> Versus {
        Versus {
            vs: None,
            tol_pct: DEFAULT_TOL_PCT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_is_read_and_written_as_one_nested_query() {
        let vs = Vs::parse("gpu=B200&gpus=1").unwrap();
        assert_eq!(
            vs,
            Vs {
                gpu: Some("B200".into()),
                gpus: Some(1),
                ..Vs::default()
            }
        );
        assert_eq!(vs.write(), "gpu=B200&gpus=1");
        let vs = Vs::parse("src=imp-1&cfg=offload%20lmcache&gpu=mi355x").unwrap();
        assert_eq!(vs.cfg.as_deref(), Some("offload lmcache"));
        assert_eq!(vs.write(), "src=imp-1&gpu=mi355x&cfg=offload+lmcache");
        assert_eq!(Vs::parse(&vs.write()).unwrap(), vs);
        assert!(vs.in_shown(Some("imp-1")) && !vs.in_shown(None));
        let default = Vs::parse("src=lm-arena-chat&gpu=B200").unwrap();
        assert!(default.in_shown(None) && !default.in_shown(Some("gpqa")));
    }

    #[test]
    fn a_candidate_that_cannot_be_read_is_named() {
        for bad in ["", "gpu=", "colour=red", "gpu=A&gpu=B", "B200"] {
            let e = Vs::parse(bad).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("must name the deployment to compare with"),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            Vs::parse("gpus=two").unwrap_err().to_string(),
            "must be a whole number of GPUs, got \"two\""
        );
    }

    #[test]
    fn the_tolerance_is_a_percentage_from_0_to_50() {
        assert_eq!(parse_tol("0"), Ok(0.0));
        assert_eq!(parse_tol(" 50 "), Ok(50.0));
        assert_eq!(parse_tol("2.5"), Ok(2.5));
        for bad in ["80", "-1", "x", "", "NaN"] {
            assert_eq!(
                parse_tol(bad).unwrap_err().to_string(),
                format!(
                    "must be a percentage from 0 to 50 (the comparison's tolerance), got \"{bad}\""
                )
            );
        }
    }
}
