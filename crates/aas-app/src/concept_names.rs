//! What the details pane says beside a semanticId: the name the submodel templates
//! (built in, and the user's own) publish for it, so that `0173-1#02-AAO677#002` reads
//! as ManufacturerName.

use aas_audit::{ConceptName, Templates};

use crate::plant_audit::{audit_templates, user_templates_dir};
use crate::App;

impl App {
    /// The templates' name of each of `semantic_ids`, in their order (`None` where no
    /// template names it). A user template that cannot be read leaves the built-in ones.
    pub fn concept_names(&self, semantic_ids: &[String]) -> Vec<Option<ConceptName>> {
        let templates = user_templates_dir()
            .and_then(|dir| audit_templates(&dir, &[]))
            .unwrap_or_else(|_| Templates::builtin());
        (semantic_ids.iter())
            .map(|id| templates.concept_name(id))
            .collect()
    }
}
