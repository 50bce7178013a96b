//! Test connection for a V3 server: the token (with OAuth 2 client credentials), what
//! the server says it offers (`/description`, optional in the Part 2 API), and how many
//! shells it lists (a registry: shell descriptors), each step in words.

use serde::de::IgnoredAny;
use serde::Deserialize;

use super::{V3Server, DEFAULT_PAGE_SIZE};
use crate::{CheckStep, Error, Outcome};

/// Shells counted at most: beyond, "at least".
const MAX_COUNTED: usize = 10_000;

#[derive(Deserialize)]
struct Description {
    #[serde(default)]
    profiles: Vec<String>,
}

impl V3Server {
    /// Tries the server as [`crate::Client::check`] tries the platform. Never fails as
    /// a whole: each step says how it went.
    pub async fn check(&self) -> Vec<CheckStep> {
        let step = |step, outcome| CheckStep { step, outcome };
        let mut steps = Vec::new();
        if let Some(tokens) = self.credentials.tokens() {
            match tokens.token().await {
                Ok(_) => {
                    let lifetime = tokens.expires_in().await.map_or(String::new(), |left| {
                        format!(", valid for {} s", left.as_secs())
                    });
                    let from = tokens.endpoint_known();
                    steps.push(step(
                        "token",
                        Outcome::Passed(format!("access token received from {from}{lifetime}")),
                    ));
                }
                Err(e) => {
                    let skipped = || Outcome::Skipped("needs an access token".into());
                    steps.push(step("token", failed(&e)));
                    steps.push(step("description", skipped()));
                    steps.push(step("shells", skipped()));
                    return steps;
                }
            }
        }
        steps.push(step("description", self.described().await));
        steps.push(step("shells", self.shells_counted().await));
        steps
    }

    /// What `/description` says, or that the server does not offer it.
    async fn described(&self) -> Outcome {
        let read = async {
            let url = self.url("description", &[])?;
            let text = self.get(&url).await?;
            aas_model::parse::<Description>(&text).map_err(Error::BadData)
        };
        match read.await {
            Ok(description) if description.profiles.is_empty() => {
                Outcome::Passed("the server names no profiles".into())
            }
            Ok(description) => Outcome::Passed(profiles_text(&description.profiles)),
            Err(Error::Api {
                status: 404 | 405 | 501,
                ..
            }) => Outcome::Skipped("the server offers no /description (it is optional)".into()),
            Err(e) => failed(&e),
        }
    }

    /// The shells listed (a registry's: its shell descriptors), counted.
    async fn shells_counted(&self) -> Outcome {
        let (route, one, many) = match self.through_registry {
            true => ("shell-descriptors", "shell descriptor", "shell descriptors"),
            false => ("shells", "shell", "shells"),
        };
        let mut count = 0;
        // Counted, not kept: each item is skipped as it is read.
        let counting = self.each_page(
            route,
            DEFAULT_PAGE_SIZE,
            MAX_COUNTED,
            |items: Vec<IgnoredAny>| {
                count += items.len();
                std::ops::ControlFlow::Continue(())
            },
        );
        match counting.await {
            Ok(end) => {
                let at_least = if end == super::PageEnd::Bounded {
                    "at least "
                } else {
                    ""
                };
                let shells = if count == 1 { one } else { many };
                let words = self.credentials.words();
                Outcome::Passed(format!("{at_least}{count} {shells} ({words})"))
            }
            Err(e) => failed(&e),
        }
    }
}

/// `https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002`
/// and its like as "API 3.0: AssetAdministrationShellRepositoryServiceSpecification/SSP-002, …":
/// the version once when all share it.
fn profiles_text(profiles: &[String]) -> String {
    let split = |profile: &str| -> (Option<String>, String) {
        let parts: Vec<&str> = profile.trim_end_matches('/').split('/').collect();
        let name = parts[parts.len().saturating_sub(2)..].join("/");
        let version = (parts.iter().position(|p| *p == "API"))
            .and_then(|at| Some(format!("{}.{}", parts.get(at + 1)?, parts.get(at + 2)?)));
        (version, name)
    };
    let split: Vec<_> = profiles.iter().map(|p| split(p)).collect();
    let names: Vec<&str> = split.iter().map(|(_, name)| name.as_str()).collect();
    match &split[0].0 {
        Some(version) if split.iter().all(|(v, _)| v.as_ref() == Some(version)) => {
            format!("API {version}: {}", names.join(", "))
        }
        _ => names.join(", "),
    }
}

fn failed(e: &Error) -> Outcome {
    Outcome::Failed(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_named_by_their_last_parts_and_the_version_once() {
        let profiles = [
            "https://admin-shell.io/aas/API/3/0/AssetAdministrationShellRepositoryServiceSpecification/SSP-002".to_owned(),
            "https://admin-shell.io/aas/API/3/0/SubmodelRepositoryServiceSpecification/SSP-002".to_owned(),
        ];
        assert_eq!(
            profiles_text(&profiles),
            "API 3.0: AssetAdministrationShellRepositoryServiceSpecification/SSP-002, \
             SubmodelRepositoryServiceSpecification/SSP-002"
        );
        assert_eq!(profiles_text(&["odd".to_owned()]), "odd");
    }
}
