//! Elements of a V3 XML part that no class of the metamodel has (a newer writer's), named
//! by their path as a JSON part's unknown properties are (`submodels[0].futureField`):
//! the part's text keeps them (Raw shows them) and the reading goes on. XML names each
//! property's element by the property and each list item's by its class, so the walk
//! needs only the metamodel's tables (`aas_v3::metamodel`). Subtrees the reading skips
//! (descriptions, qualifiers, data specifications: `xml_tree::NOT_READ`) are not looked
//! into.

use aas_v3::metamodel::{class_of, properties};

use crate::contents::UNKNOWN_NAMED;
use crate::xml_tree::Node;

#[derive(Debug, Default)]
pub(crate) struct Unknown {
    /// The first [`UNKNOWN_NAMED`] paths.
    pub names: Vec<String>,
    pub count: usize,
}

impl Unknown {
    /// Counts one more, named by the path `at` and then `last`, while names are wanted.
    fn found(&mut self, at: &[Step], last: Step) {
        self.count += 1;
        if self.names.len() < UNKNOWN_NAMED {
            let mut path = String::new();
            for step in at.iter().chain([&last]) {
                match step {
                    Step::Named(name) if path.is_empty() => path.push_str(name),
                    Step::Named(name) => {
                        path.push('.');
                        path.push_str(name);
                    }
                    Step::Item(i) => path.push_str(&format!("[{i}]")),
                }
            }
            self.names.push(path);
        }
    }

    /// Looks through `object`, item `at` of the root's list `list` (its class is its
    /// element's name, as XML names classes: `submodel`).
    pub fn walk_item(&mut self, object: &Node, list: &str, at: usize) {
        let mut path = vec![Step::Named(list), Step::Item(at)];
        self.walk(object, &object.name, &mut path);
    }

    /// Looks through `object`, of `class`, at `path` (a path is made only for what is
    /// found: most files name nothing).
    fn walk<'n>(&mut self, object: &'n Node, class: &str, path: &mut Vec<Step<'n>>) {
        for child in &object.children {
            let name = Step::Named(&child.name);
            if !properties(class).any(|p| p == child.name) {
                self.found(path, name);
                continue;
            }
            if child.children.is_empty() {
                continue;
            }
            path.push(name);
            // One object of a class the property names (its elements are that class's
            // properties), else a list whose items are named by their class.
            let one = class_of(class, &child.name)
                .filter(|of| (child.children.iter()).any(|c| properties(of).any(|p| p == c.name)));
            match one {
                Some(of) => self.walk(child, of, path),
                None => {
                    for (i, item) in child.children.iter().enumerate() {
                        match properties(&item.name).next() {
                            Some(_) => {
                                path.push(Step::Item(i));
                                self.walk(item, &item.name, path);
                                path.pop();
                            }
                            None => self.found(path, Step::Item(i)),
                        }
                    }
                }
            }
            path.pop();
        }
    }
}

/// A step of a path: a property, or an item of a list by its place.
#[derive(Debug, Clone, Copy)]
enum Step<'n> {
    Named(&'n str),
    Item(usize),
}
