//! Elements of a V3 XML part that no class of the metamodel has (a newer writer's), named
//! by their path as a JSON part's unknown properties are (`submodels[0].futureField`):
//! the part's text keeps them (Raw shows them) and the reading goes on. XML names each
//! property's element by the property and each list item's by its class, so the walk
//! needs only the metamodel's tables (`aas_v3::metamodel`). Subtrees the reading skips
//! (descriptions, qualifiers, data specifications: `xml_tree::NOT_READ`) are not looked
//! into.

use aas_v3::metamodel::{class_of, properties};

use crate::xml_tree::Node;

#[derive(Debug, Default)]
pub(crate) struct Unknown {
    /// The first `limit` paths.
    pub names: Vec<String>,
    pub count: usize,
    limit: usize,
}

impl Unknown {
    pub fn new(limit: usize) -> Self {
        Unknown {
            limit,
            ..Unknown::default()
        }
    }

    fn found(&mut self, path: String) {
        self.count += 1;
        if self.names.len() < self.limit {
            self.names.push(path);
        }
    }

    /// Looks through `object`, of `class` (as XML names it: `submodel`), at path `at`.
    pub fn walk(&mut self, object: &Node, class: &str, at: &str) {
        let known: Vec<&str> = properties(class).collect();
        for child in &object.children {
            let path = format!("{at}.{}", child.name);
            if !known.contains(&child.name.as_str()) {
                self.found(path);
                continue;
            }
            if child.children.is_empty() {
                continue;
            }
            // One object of a class the property names (its elements are that class's
            // properties), else a list whose items are named by their class.
            let one = class_of(class, &child.name).filter(|of| {
                let names: Vec<&str> = properties(of).collect();
                child
                    .children
                    .iter()
                    .any(|c| names.contains(&c.name.as_str()))
            });
            match one {
                Some(of) => self.walk(child, of, &path),
                None => {
                    for (i, item) in child.children.iter().enumerate() {
                        let path = format!("{path}[{i}]");
                        match properties(&item.name).next() {
                            Some(_) => self.walk(item, &item.name, &path),
                            None => self.found(path),
                        }
                    }
                }
            }
        }
    }
}
