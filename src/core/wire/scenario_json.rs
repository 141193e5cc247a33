//! The JSON download's `scenario` entries of the link's parameters, each as its declaration in
//! [`scenario_params!`](crate::scenario_params) writes it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::core::scenario::{JsonEntry, Scenario};

/// A scenario's parameters as the JSON download writes them: key and value, in the order a link
/// writes the parameters.
pub struct ParamEntries(Vec<(&'static str, JsonEntry)>);

impl ParamEntries {
    /// The entries of every parameter of `scenario` that the JSON writes.
    pub fn of(scenario: &Scenario) -> ParamEntries {
        ParamEntries(entries(scenario))
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

/// Declares `entries` from the list: each parameter's JSON entries, in order.
macro_rules! declare_entries {
    ($(
        $(#[$doc:meta])*
        $name:ident {
            keys: [$($key:literal),+],
            group: $group:ident,
            $(needs: $needs:literal,)?
            read: $read:expr,
            write: $write:expr,
            json: { $($json_key:literal : $json:expr),* $(,)? },
            $(form: { $($form:tt)* },)?
            readme: ($meaning:literal, $default:literal),
        }
    )*) => {
        /// The JSON entries of every parameter of `scenario`.
        fn entries(scenario: &Scenario) -> Vec<(&'static str, JsonEntry)> {
            let mut entries = Vec::new();
            $($(
                let value: fn(&Scenario) -> JsonEntry = $json;
                entries.push(($json_key, value(scenario)));
            )*)*
            entries
        }
    };
}

crate::scenario_params!(declare_entries);
