//! The JSON download's `scenario` entries of the link's parameters, each as its
//! declaration ([`JSON_FIELDS`]) writes it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::core::scenario::params::JSON_FIELDS;
use crate::core::scenario::{JsonEntry, Scenario};

/// A scenario's parameters as the JSON download writes them: key and value, in the order a link
/// writes the parameters.
pub struct ParamEntries(Vec<(&'static str, JsonEntry)>);

impl ParamEntries {
    /// The entries of every parameter of `scenario` that the JSON writes.
    pub fn of(scenario: &Scenario) -> ParamEntries {
        ParamEntries(
            JSON_FIELDS
                .iter()
                .flat_map(|fields| fields.iter())
                .map(|field| (field.key, (field.value)(scenario)))
                .collect(),
        )
    }
}

impl Serialize for ParamEntries {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Serialize for JsonEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonEntry::Value(value) => value.serialize(serializer),
            JsonEntry::Objects(objects) => serializer.collect_seq(objects.iter().map(Ordered)),
        }
    }
}

/// An object whose keys keep their order.
struct Ordered<'a>(&'a Vec<(&'static str, Value)>);

impl Serialize for Ordered<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}
