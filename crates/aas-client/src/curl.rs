use crate::Client;

impl Client {
    /// The gateway URL of an AAS, one of its submodels, or an element inside one
    /// (`id_shorts` from the outermost collection down), identifiers encoded once.
    pub fn resource_url(
        &self,
        aas_id: &str,
        submodel: Option<&str>,
        id_shorts: &[String],
    ) -> String {
        let path: Vec<&str> = id_shorts.iter().map(String::as_str).collect();
        match submodel {
            None => self.aas_url(aas_id),
            Some(sm) if path.is_empty() => self.submodel_url(aas_id, sm),
            Some(sm) => self.elements_url(aas_id, sm, &path),
        }
    }
}

/// A curl command that repeats a GET, with `$ACCESS_TOKEN` and `$USER_TOKEN` where the
/// tokens go: a command to share or paste into a ticket never carries a secret.
pub fn curl_command(url: &str) -> String {
    format!(
        "curl -sS -H \"Authorization: Bearer $ACCESS_TOKEN\" -H \"UserToken: Bearer $USER_TOKEN\" '{}'",
        url.replace('\'', "%27")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curl_command_holds_placeholders_and_the_encoded_url() {
        let cmd = curl_command("http://h/gateway/aasList/urn%3Ax%23M-1");
        assert!(cmd.contains("$ACCESS_TOKEN") && cmd.contains("$USER_TOKEN"));
        assert!(cmd.ends_with("'http://h/gateway/aasList/urn%3Ax%23M-1'"));
        assert!(
            !curl_command("http://h/a'b").contains("a'b"),
            "a quote cannot end the argument"
        );
    }
}
