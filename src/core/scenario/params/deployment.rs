//! The parameters of the data and the deployment picked in it ([`Group::Deployment`]).

use super::{Declared, Group, Param, Readme};
use crate::core::scenario::{parse_gpus, ParamErrorKind};

/// The data.
pub(super) const SRC: Declared = Declared {
    param: Param {
        keys: &["src"],
        group: Group::Deployment,
        needs: None,
        read: |r, _, v| {
            r.src = Some(v.trim().to_string()).filter(|v| !v.is_empty());
            Ok(())
        },
        write: |s, link| link.text("src", s.src.as_deref()),
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "the data: `lm-arena-chat`, `gpqa`, `sourcegraph-fim`, `image-chat` (ML.ENERGY workloads), `reference` (the seed documents' reference systems), an import (`imp-…`) or `shared`",
        default: "`lm-arena-chat`",
    },
};

/// The model.
pub(super) const MODEL: Declared = Declared {
    param: Param {
        keys: &["model"],
        group: Group::Deployment,
        needs: None,
        read: |r, _, v| {
            r.model = Some(v.to_string());
            Ok(())
        },
        write: |s, link| link.text("model", Some(&s.deployment.model_id)),
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "the model's `model_id`, e.g. `meta-llama/Llama-3.1-8B-Instruct`",
        default: "`meta-llama/Llama-3.1-8B-Instruct`",
    },
};

/// The GPU type.
pub(super) const GPU: Declared = Declared {
    param: Param {
        keys: &["gpu"],
        group: Group::Deployment,
        needs: None,
        read: |r, _, v| {
            r.gpu = Some(v.to_string());
            Ok(())
        },
        write: |s, link| link.text("gpu", Some(&s.deployment.gpu)),
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "GPU type, e.g. `H100`, `B200`",
        default: "H100 if the model has it, else its other GPU",
    },
};

/// GPUs per replica.
pub(super) const GPUS: Declared = Declared {
    param: Param {
        keys: &["gpus"],
        group: Group::Deployment,
        needs: None,
        read: |r, _, v| {
            r.num_gpus = Some(parse_gpus(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| {
            link.text(
                "gpus",
                s.deployment.num_gpus.map(|n| n.to_string()).as_deref(),
            )
        },
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "GPUs per replica",
        default: "the fewest measured for that GPU",
    },
};

/// What tells a sweep apart.
pub(super) const CFG: Declared = Declared {
    param: Param {
        keys: &["cfg"],
        group: Group::Deployment,
        needs: None,
        read: |r, _, v| {
            r.cfg = Some(v.to_string());
            Ok(())
        },
        write: |s, link| link.text("cfg", s.deployment.cfg.as_deref()),
    },
    form: None,
    json: &[],
    readme: Readme {
        meaning: "what tells a sweep apart where model, GPU and count do not identify one: the identity fields that differ among those sweeps, as the picker shows them (e.g. `2026-03-25`, `sharegpt`, `EP8`, `max_num_seqs=8`); a link made before still opens the one sweep whose label contains its `cfg`",
        default: "the newest date first, then the first",
    },
};
