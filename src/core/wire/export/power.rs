//! The JSON's `result.power`: a power budget at the recommended level (`plan::power`), each
//! figure of `text::power_text::BUDGET_FIGURES` by its key.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::core::plan::power::{Budgeted, PowerError};
use crate::core::text::power_text::{power_error_text, BUDGET_FIGURES};

/// `result.power`: the budget (`budget_w`), its basis, every figure of the budget in order
/// (`null` where absent), whether the load's peak fits, and why it cannot be planned (`error`).
pub(super) struct JsonPower(Vec<(&'static str, Value)>);

impl Serialize for JsonPower {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl JsonPower {
    /// The budget as written, under `basis` (its key), for `budget_w`.
    pub(super) fn of(
        budgeted: Result<Budgeted, PowerError>,
        basis: &'static str,
        budget_w: f64,
    ) -> JsonPower {
        let (budgeted, error) = match budgeted {
            Ok(b) => (Some(b), None),
            Err(e) => (None, Some(power_error_text(&e))),
        };
        let need = budgeted.as_ref().and_then(|b| b.need.map(|(_, n)| n));
        let figures = BUDGET_FIGURES.iter().map(|f| {
            let value = budgeted
                .as_ref()
                .and_then(|b| f.value(&b.plan, need.as_ref()));
            let value = match value {
                Some(v) if f.count => Value::from(v as u64),
                Some(v) => Value::from(v),
                None => Value::Null,
            };
            (f.key(), value)
        });
        let mut entries = vec![
            ("budget_w", Value::from(budget_w)),
            ("basis", Value::from(basis)),
        ];
        entries.extend(figures);
        entries.push(("fits", need.map_or(Value::Null, |n| Value::from(n.fits))));
        entries.push(("error", error.map_or(Value::Null, Value::from)));
        JsonPower(entries)
    }
}
