//! What the page asks of the active profile's service itself, beside the tree: a
//! shell's endpoints, a fresh registry read, whether it answers, a node's request as
//! curl.

use aas_client::NamedEndpoint;

use crate::{App, Result};

impl App {
    /// The endpoints the registry names for shell `aas_id`.
    pub async fn shell_endpoints(&self, aas_id: &str) -> Result<Vec<NamedEndpoint>> {
        Ok(self.session().client.endpoints(aas_id).await?)
    }

    /// Forgets the registry read, so the next read asks the service again.
    pub async fn refresh_registry(&self) {
        self.session().client.forget_registry().await;
    }

    /// Whether the service answers at all (one small request, no token).
    pub async fn check_connection(&self) -> Result<()> {
        Ok(self.session().client.probe().await?)
    }

    /// The request of the node at `aas_id`, `submodel`, `id_shorts` (outermost first) as
    /// a curl command, tokens as placeholders.
    pub fn curl_for(&self, aas_id: &str, submodel: Option<&str>, id_shorts: &[String]) -> String {
        let url = self
            .session()
            .client
            .resource_url(aas_id, submodel, id_shorts);
        aas_client::curl_command(&url)
    }
}
