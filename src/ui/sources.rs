//! The data source section: the source picker and the import panel side by side.

use leptos::prelude::*;

use super::import_panel::ImportPanel;
use super::registry::Registry;
use super::source_picker::SourcePicker;

/// Source picker and import panel.
#[component]
pub fn SourcePanel(registry: Registry) -> impl IntoView {
    let share_note = RwSignal::new(String::new());
    view! {
        <section class="sources" aria-labelledby="sources-title">
            <h2 id="sources-title" class="sr-only">"Data source"</h2>
            <SourcePicker registry=registry share_note=share_note />
            <ImportPanel registry=registry share_note=share_note />
        </section>
    }
}
