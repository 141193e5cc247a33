//! A link's parameters, each declared once as plain data ([`Declared`], listed in [`DECLARED`]):
//! its keys, the part of the [`Scenario`] it sets ([`Group`]: what is carried to another
//! source), how it is read (with its error) and written back, the fleet form's field where it
//! has one, its entries in the JSON download's `scenario`, and its row of the README's table.
//! The command line offers each key as `--key` ([`param_keys`]). The declarations are grouped in
//! files by what they set (`params/*.rs`); [`DECLARED`] puts them in the order a link writes them.
//!
//! The fronts read the parts they use, each a list made from [`DECLARED`] when the crate is
//! compiled: [`PARAMS`] (the reader and writer of every front), [`FLEET_INPUTS`] (the page's
//! fleet form) and [`JSON_FIELDS`] (the JSON download's entries, written by
//! `core::wire::scenario_json`); the README's table is held to [`Declared::readme`] by a test.
//! A constant is compiled only where it is used, so the page's first load carries [`PARAMS`]
//! and neither the JSON's writers nor the README's text.

mod comparison;
mod deployment;
mod fleet;
mod period;
mod power;
mod slo;
mod view;

use super::errors::ParamErrorKind;
use super::read::Read;
use super::values::InputKind;
use super::Scenario;
use crate::core::plan::capacity::CapacityInputs;

/// Every parameter as declared, in the order a link writes them: the one list of what a link
/// may hold.
pub const DECLARED: &[Declared] = &[
    deployment::SRC,
    deployment::MODEL,
    deployment::GPU,
    deployment::GPUS,
    deployment::CFG,
    slo::TARGET,
    slo::STAT,
    slo::LIMIT,
    slo::ATTAIN,
    view::Y,
    view::CMP,
    view::SORT,
    view::REQUESTS_AT,
    fleet::USERS,
    fleet::RPS,
    fleet::PRICE,
    fleet::KWH_PRICE,
    fleet::CO2,
    fleet::PUE,
    fleet::API,
    fleet::CACHED,
    power::POWER,
    power::POWER_BASIS,
    power::HOST_W,
    period::LOAD,
    period::LAG,
    period::MIN_REPLICAS,
    comparison::VS,
    comparison::TOL,
];

/// Every link parameter as every front reads and writes it, in [`DECLARED`]'s order.
pub const PARAMS: &[Param] = &params_of::<{ DECLARED.len() }>();

/// The fleet, cost and energy inputs of the page's form (the declarations with a
/// [`Declared::form`]), in form and URL order.
pub const FLEET_INPUTS: &[FleetInput] = &fleet_inputs_of::<{ forms() }>();

/// Each parameter's entries in the JSON download's `scenario`, in [`DECLARED`]'s order.
pub const JSON_FIELDS: &[&[JsonField]] = &json_of::<{ DECLARED.len() }>();

/// The [`Param`] of each declaration.
const fn params_of<const N: usize>() -> [Param; N] {
    let mut params = [DECLARED[0].param; N];
    let mut i = 0;
    while i < N {
        params[i] = DECLARED[i].param;
        i += 1;
    }
    params
}

/// How many declarations have a field in the fleet form.
const fn forms() -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < DECLARED.len() {
        if DECLARED[i].form.is_some() {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The fleet input of the `i`th declaration, if it has a field in the form.
const fn fleet_input(i: usize) -> Option<FleetInput> {
    match DECLARED[i].form {
        Some(form) => Some(FleetInput {
            key: DECLARED[i].param.keys[0],
            label: form.label,
            unit: form.unit,
            kind: form.kind,
            field: form.field,
        }),
        None => None,
    }
}

/// The fleet inputs of the declarations that have one, in order.
const fn fleet_inputs_of<const N: usize>() -> [FleetInput; N] {
    let mut found = [None; N];
    let (mut i, mut n) = (0, 0);
    while i < DECLARED.len() {
        if let Some(input) = fleet_input(i) {
            found[n] = Some(input);
            n += 1;
        }
        i += 1;
    }
    let mut inputs = [match found[0] {
        Some(input) => input,
        None => panic!("no fleet input"),
    }; N];
    while n > 0 {
        n -= 1;
        if let Some(input) = found[n] {
            inputs[n] = input;
        }
    }
    inputs
}

/// The JSON entries of each declaration.
const fn json_of<const N: usize>() -> [&'static [JsonField]; N] {
    let mut json: [&'static [JsonField]; N] = [&[]; N];
    let mut i = 0;
    while i < N {
        json[i] = DECLARED[i].json;
        i += 1;
    }
    json
}

/// One link parameter as declared: what every front reads and writes, its field in the page's
/// fleet form, its entries in the JSON download's `scenario`, and its row of the README's table.
pub struct Declared {
    /// How it is read and written.
    pub param: Param,
    /// Its field in the page's form of fleet inputs, when it has one ([`FLEET_INPUTS`]).
    pub form: Option<Form>,
    /// Its entries in the JSON download's `scenario`, in order (none: the JSON leaves it out).
    pub json: &'static [JsonField],
    /// Its row of the README's table of parameters.
    pub readme: Readme,
}

/// One link parameter, as every front reads and writes it (declared in [`DECLARED`]).
#[derive(Clone, Copy)]
pub struct Param {
    /// The link's keys (one, or `tps` and `tpot` for the target).
    pub keys: &'static [&'static str],
    /// The part of the scenario it sets.
    pub group: Group,
    /// The parameter it qualifies (`vs` for `tol`): without it, it is not read (a message names
    /// what it needs) nor written back.
    pub needs: Option<&'static str>,
    pub(super) read: ParamReader,
    pub(super) write: fn(&Scenario, &mut Link),
}

/// Reads one parameter's value (its key, then its value) into what the link says; `Err` is what
/// was wrong with it.
type ParamReader = fn(&mut Read, &str, &str) -> Result<(), ParamErrorKind>;

/// One entry of the JSON download's `scenario`: its key and how it is written.
pub struct JsonField {
    /// The entry's key, e.g. `requests_per_second`.
    pub key: &'static str,
    /// Its value in a scenario.
    pub value: fn(&Scenario) -> JsonEntry,
}

/// A parameter's row of the README's table of parameters (its keys come from [`Param::keys`],
/// what it qualifies from [`Param::needs`]).
pub struct Readme {
    /// What it means, in Markdown.
    pub meaning: &'static str,
    /// Its default, in Markdown.
    pub default: &'static str,
}

/// A parameter's field in the page's form of fleet inputs: its label, unit, what it accepts,
/// and its field of [`CapacityInputs`].
#[derive(Clone, Copy)]
pub struct Form {
    /// Form label, e.g. `Electricity price`.
    pub label: &'static str,
    /// Unit shown after the label, e.g. `$ per kWh`.
    pub unit: &'static str,
    /// What the input accepts.
    pub kind: InputKind,
    /// The input's field.
    pub field: fn(&mut CapacityInputs) -> &mut Option<f64>,
}

/// One optional fleet, cost and energy input of the page's form: its URL key (also the form's
/// `input-KEY` hook), label, unit, what it accepts, and its field of [`CapacityInputs`] (a
/// declaration's [`Form`] with its key).
#[derive(Clone, Copy)]
pub struct FleetInput {
    /// URL key, e.g. `kwh_price`.
    pub key: &'static str,
    /// Form label, e.g. `Electricity price`.
    pub label: &'static str,
    /// Unit shown after the label, e.g. `$ per kWh`.
    pub unit: &'static str,
    /// What the input accepts.
    pub kind: InputKind,
    /// The input's field.
    pub field: fn(&mut CapacityInputs) -> &mut Option<f64>,
}

impl FleetInput {
    /// The input's value in `inputs`.
    pub fn get(&self, inputs: &CapacityInputs) -> Option<f64> {
        let mut inputs = *inputs;
        *(self.field)(&mut inputs)
    }
}

/// A parameter's entry in the JSON download's `scenario`: a JSON value, or objects whose keys
/// keep the order given (written by `core::wire::scenario_json`).
#[derive(Clone, Debug, PartialEq)]
pub enum JsonEntry {
    /// A value.
    Value(serde_json::Value),
    /// Objects, each its keys and values in order.
    Objects(Vec<Vec<(&'static str, serde_json::Value)>>),
}

impl<T: Into<serde_json::Value>> From<T> for JsonEntry {
    fn from(value: T) -> JsonEntry {
        JsonEntry::Value(value.into())
    }
}

/// The part of a [`Scenario`] a parameter sets: all but the deployment and the comparison are
/// carried when the page opens another source ([`Scenario::with_slo_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The data and the deployment picked in it.
    Deployment,
    /// The SLO: target, statistic, limits, attainment.
    Slo,
    /// The fleet, cost and energy inputs, and the load over time.
    Fleet,
    /// How the page shows the answer (chart axis, side-by-side table).
    View,
    /// The comparison with a candidate (`vs`, `tol`): not carried to another source, whose
    /// sweeps are others.
    Comparison,
}

/// Every URL key a scenario reads, in the order a link writes them: the one list of them, for
/// front ends that take the same parameters another way (the command line's `--KEY VALUE`).
pub fn param_keys() -> Vec<&'static str> {
    PARAMS.iter().flat_map(|p| p.keys.iter().copied()).collect()
}

/// True when `key` is a parameter of the fleet, cost and energy inputs or of the load over time
/// ([`Group::Fleet`]).
pub fn is_fleet_param(key: &str) -> bool {
    PARAMS
        .iter()
        .any(|p| p.group == Group::Fleet && p.keys.contains(&key))
}

/// A link being written: its parameters in order, encoded as a query string, and how many.
pub struct Link(form_urlencoded::Serializer<'static, String>, usize);

impl Link {
    /// Adds `key=value`.
    pub fn pair(&mut self, key: &str, value: &str) {
        self.0.append_pair(key, value);
        self.1 += 1;
    }

    /// Adds `key=value` when there is a value.
    pub fn text(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.pair(key, value);
        }
    }

    /// Adds `key=NUMBER` when there is a number, written as a link writes numbers
    /// ([`url_number`](crate::core::model::format::url_number)).
    pub fn number(&mut self, key: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.pair(key, &crate::core::model::format::url_number(v));
        }
    }
}

/// The query string of `scenario`, without the leading `?`: each parameter of [`PARAMS`] writes
/// itself, in order, but one that qualifies another ([`Param::needs`]) the link does not hold.
pub(super) fn query_of(scenario: &Scenario) -> String {
    let mut link = Link(form_urlencoded::Serializer::new(String::new()), 0);
    let mut written: Vec<&str> = Vec::new();
    for param in PARAMS {
        if param.needs.is_some_and(|needs| !written.contains(&needs)) {
            continue;
        }
        let before = link.1;
        (param.write)(scenario, &mut link);
        if link.1 > before {
            written.push(param.keys[0]);
        }
    }
    link.0.finish()
}

#[cfg(test)]
mod tests {
    use super::{param_keys, Group, DECLARED, PARAMS};

    /// The README's table of parameters, a row per declaration (a parameter that qualifies
    /// another says so after its meaning).
    fn readme_rows() -> Vec<String> {
        DECLARED
            .iter()
            .map(|d| {
                let keys: Vec<String> = d.param.keys.iter().map(|k| format!("`{k}`")).collect();
                let alone = d.param.needs.map_or_else(String::new, |n| {
                    format!("; read only with `{n}` (alone, it is named and left out of the link)")
                });
                format!(
                    "| {} | {}{alone} | {} |",
                    keys.join(" or "),
                    d.readme.meaning,
                    d.readme.default
                )
            })
            .collect()
    }

    #[test]
    fn the_readme_table_is_the_declarations() {
        let readme = include_str!("../../../README.md");
        let table: Vec<&str> = readme
            .split("| parameter | meaning | default |\n|---|---|---|\n")
            .nth(1)
            .expect("the README has its table of parameters")
            .lines()
            .take_while(|l| l.starts_with('|'))
            .collect();
        let rows = readme_rows();
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(
                table.get(i).copied(),
                Some(row.as_str()),
                "row {} of the README's table of parameters should be:\n{row}",
                i + 1
            );
        }
        assert_eq!(
            table.len(),
            rows.len(),
            "the README's table has rows no parameter declares"
        );
    }

    #[test]
    fn each_key_is_declared_once_and_fleet_keys_are_the_fleet_group() {
        let mut keys = param_keys();
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count);
        assert!(PARAMS
            .iter()
            .filter(|p| p.group == Group::Fleet)
            .all(|p| super::is_fleet_param(p.keys[0])));
    }
}
