//! The JSON of the fleet at the scenario's inputs (`result.capacity`: `core::plan::capacity`):
//! the fleet's figures as the panel lists them ([`fleet_entries`](crate::core::text::capacity_text::fleet_entries)), each under its JSON field,
//! between the streams a replica holds and the two fields that are not figures.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::core::plan::capacity::Capacity;
use crate::core::text::capacity_text::{FleetEntry, JsonField};

/// `result.capacity`: `streams_per_replica`, every fleet figure in the panel's order (`null`
/// where its value is not there), `wh_per_1000_requests` and `totals_leave_out`.
pub(super) struct JsonCapacity {
    /// The fleet at the recommended level.
    pub(super) capacity: Capacity,
    /// Its figures, in the panel's order.
    pub(super) entries: Vec<FleetEntry>,
}

impl Serialize for JsonCapacity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = &self.capacity;
        let mut map = serializer.serialize_map(Some(self.entries.len() + 3))?;
        map.serialize_entry("streams_per_replica", &c.streams_per_replica)?;
        for entry in &self.entries {
            let value = entry.figure.as_ref().map(|f| f.value);
            match entry.json {
                JsonField::Whole(key) => map.serialize_entry(key, &value.map(|v| v as u64))?,
                JsonField::Number(key) => map.serialize_entry(key, &value)?,
            }
        }
        map.serialize_entry("wh_per_1000_requests", &c.wh_per_1000_requests)?;
        map.serialize_entry("totals_leave_out", &c.total_lacks)?;
        map.end()
    }
}
