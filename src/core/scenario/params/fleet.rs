//! The parameters of the fleet, cost and energy inputs ([`Group::Fleet`]).

use super::{Declared, Form, Group, JsonField, Param, Readme};
use crate::core::scenario::{api_text, parse_api, prices_text, InputKind, ParamErrorKind};

/// Concurrent users.
pub(super) const USERS: Declared = Declared {
    param: Param {
        keys: &["users"],
        group: Group::Fleet,
        needs: None,
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("users", s.fleet.capacity.users),
    },
    form: Some(Form {
        label: "Concurrent users",
        unit: "streams",
        kind: InputKind::Users,
        field: |c| &mut c.users,
    }),
    json: &[JsonField {
        key: "users",
        value: |s| s.fleet.capacity.users.into(),
    }],
    readme: Readme {
        meaning: "concurrent streams to serve at the target (fleet size), a whole number from 1 to 10⁹ (`users=2.5` is named)",
        default: "none",
    },
};

/// A load in requests per second.
pub(super) const RPS: Declared = Declared {
    param: Param {
        keys: &["rps"],
        group: Group::Fleet,
        needs: None,
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("rps", s.fleet.capacity.rps),
    },
    form: Some(Form {
        label: "Load (instead of users)",
        unit: "requests per second",
        kind: InputKind::Rate,
        field: |c| &mut c.rps,
    }),
    json: &[JsonField {
        key: "requests_per_second",
        value: |s| s.fleet.capacity.rps.into(),
    }],
    readme: Readme {
        meaning: "or a load in requests per second, 0.001 to 10⁹ (give one of `users` and `rps`; with both, a message names them and `users` is used)",
        default: "none",
    },
};

/// GPU prices.
pub(super) const PRICE: Declared = Declared {
    param: Param {
        keys: &["price"],
        group: Group::Fleet,
        needs: None,
        read: |r, _, v| r.prices(v),
        write: |s, link| {
            let text = prices_text(s.fleet.capacity.price_per_gpu_hour, &s.fleet.gpu_prices);
            if !text.is_empty() {
                link.pair("price", &text);
            }
        },
    },
    form: Some(Form {
        label: "GPU price",
        unit: "$ per GPU-hour",
        kind: InputKind::Amount,
        field: |c| &mut c.price_per_gpu_hour,
    }),
    json: &[
        JsonField {
            key: "price_usd_per_gpu_hour",
            value: |s| s.fleet.capacity.price_per_gpu_hour.into(),
        },
        JsonField {
            key: "price_usd_per_gpu_hour_by_type",
            value: |s| {
                s.fleet
                    .gpu_prices
                    .0
                    .iter()
                    .map(|(g, p)| {
                        serde_json::Value::from(vec![
                            serde_json::Value::from(g.as_str()),
                            serde_json::Value::from(*p),
                        ])
                    })
                    .collect::<Vec<_>>()
                    .into()
            },
        },
    ],
    readme: Readme {
        meaning: "$ per GPU-hour (typed by you: no built-in price): one number for every GPU type, or a price per GPU type (`price=H100:2.49,B200:5.99`), or both (`price=2.5,B200:5.99`: 2.5 for every type not named). Types are matched case-insensitively; \"GPU not stated\" takes only the bare number; a type without a price shows \"no price given\", never 0 or another type's price. At most 64 entries are read, a type name is cut to 200 characters, and an entry given twice is named (the last one is used). The form has the price for every type and one field per GPU type of the data",
        default: "none",
    },
};

/// The electricity price.
pub(super) const KWH_PRICE: Declared = Declared {
    param: Param {
        keys: &["kwh_price"],
        group: Group::Fleet,
        needs: None,
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("kwh_price", s.fleet.capacity.price_per_kwh),
    },
    form: Some(Form {
        label: "Electricity price",
        unit: "$ per kWh",
        kind: InputKind::Amount,
        field: |c| &mut c.price_per_kwh,
    }),
    json: &[JsonField {
        key: "price_usd_per_kwh",
        value: |s| s.fleet.capacity.price_per_kwh.into(),
    }],
    readme: Readme {
        meaning: "$ per kWh",
        default: "none",
    },
};

/// The grid's carbon intensity.
pub(super) const CO2: Declared = Declared {
    param: Param {
        keys: &["co2"],
        group: Group::Fleet,
        needs: None,
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("co2", s.fleet.capacity.co2_g_per_kwh),
    },
    form: Some(Form {
        label: "Grid carbon intensity",
        unit: "g CO2 per kWh",
        kind: InputKind::Amount,
        field: |c| &mut c.co2_g_per_kwh,
    }),
    json: &[JsonField {
        key: "co2_g_per_kwh",
        value: |s| s.fleet.capacity.co2_g_per_kwh.into(),
    }],
    readme: Readme {
        meaning: "grams CO2 per kWh",
        default: "none",
    },
};

/// The facility's overhead.
pub(super) const PUE: Declared = Declared {
    param: Param {
        keys: &["pue"],
        group: Group::Fleet,
        needs: None,
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("pue", s.fleet.capacity.pue),
    },
    form: Some(Form {
        label: "PUE",
        unit: "1 = GPUs only",
        kind: InputKind::Pue,
        field: |c| &mut c.pue,
    }),
    json: &[JsonField {
        key: "pue",
        value: |s| s.fleet.capacity.pue_or_default().into(),
    }],
    readme: Readme {
        meaning: "facility overhead factor, 1 to 10",
        default: "1.0 = GPUs only",
    },
};

/// A hosted API's price, to cost a request against.
pub(super) const API: Declared = Declared {
    param: Param {
        keys: &["api"],
        group: Group::Fleet,
        needs: Some("price"),
        read: |r, _, v| {
            r.fleet.capacity.api = Some(parse_api(v).map_err(ParamErrorKind::Invalid)?);
            Ok(())
        },
        write: |s, link| {
            if let Some(api) = s.fleet.capacity.api {
                link.pair("api", &api_text(&api));
            }
        },
    },
    form: None,
    json: &[JsonField {
        key: "api_usd_per_m_tokens",
        value: |s| {
            s.fleet
                .capacity
                .api
                .map(|a| {
                    serde_json::json!({
                        "input": a.input,
                        "output": a.output,
                        "cached_input": a.cached_input,
                    })
                })
                .into()
        },
    }],
    readme: Readme {
        meaning: "a hosted API's price to cost a request against, `INPUT:OUTPUT` or `INPUT:OUTPUT:CACHED`, $ per million input, output and cached input tokens (e.g. `api=1.25:10` or `api=1.25:10:0.125`; each 0, or 0.0001 to 1,000,000): the API's $ per request at the sweep's input and output lengths, self-hosted ÷ API (`vs_api`) and the break-even utilisation (see \"What a request costs\")",
        default: "none",
    },
};

/// The share of input tokens the API serves from its cache.
pub(super) const CACHED: Declared = Declared {
    param: Param {
        keys: &["cached"],
        group: Group::Fleet,
        needs: Some("api"),
        read: |r, k, v| r.fleet_number(k, v),
        write: |s, link| link.number("cached", s.fleet.capacity.cached),
    },
    form: Some(Form {
        label: "Cached input share",
        unit: "0-1, of the API's input tokens",
        kind: InputKind::Share,
        field: |c| &mut c.cached,
    }),
    json: &[JsonField {
        key: "cached_share",
        value: |s| s.fleet.capacity.cached.unwrap_or(0.0).into(),
    }],
    readme: Readme {
        meaning: "the share of input tokens the API serves from its cache, 0 to 1, priced at the API's cached input price (its third number; without one, at its input price, said)",
        default: "0",
    },
};
