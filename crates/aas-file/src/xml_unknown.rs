//! Elements of a V3 XML part that no class of the metamodel has (a newer writer's), named
//! by their path as a JSON part's unknown properties are (`submodels[0].futureField`):
//! the part's text keeps them (Raw shows them) and the reading goes on. XML names each
//! property's element by the property and each list item's by its class, so the walk
//! needs only the metamodel's tables (`aas_v3::metamodel`). Subtrees the reading skips
//! (descriptions, qualifiers, data specifications: `xml_tree::NOT_READ`) are not looked
//! into.

use aas_v3::metamodel::{class_of, properties, UnknownProperties};

use crate::xml_tree::Node;

/// Looks through `object`, item `at` of the root's list `list` (its class is its
/// element's name, as XML names classes: `submodel`), counting into `found`.
pub(crate) fn walk_item(found: &mut UnknownProperties, object: &Node, list: &str, at: usize) {
    let mut path = vec![Step::Named(list), Step::Item(at)];
    walk(found, object, &object.name, &mut path);
}

/// The path `at` and then `last`, as JSON writes it.
fn path_of(at: &[Step], last: Step) -> String {
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
    path
}

/// Looks through `object`, of `class`, at `path`.
fn walk<'n>(
    found: &mut UnknownProperties,
    object: &'n Node,
    class: &str,
    path: &mut Vec<Step<'n>>,
) {
    for child in &object.children {
        let name = Step::Named(&child.name);
        if !properties(class).any(|p| p == child.name) {
            found.found(|| path_of(path, name));
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
            Some(of) => walk(found, child, of, path),
            None => {
                for (i, item) in child.children.iter().enumerate() {
                    match properties(&item.name).next() {
                        Some(_) => {
                            path.push(Step::Item(i));
                            walk(found, item, &item.name, path);
                            path.pop();
                        }
                        None => found.found(|| path_of(path, Step::Item(i))),
                    }
                }
            }
        }
        path.pop();
    }
}

/// A step of a path: a property, or an item of a list by its place.
#[derive(Debug, Clone, Copy)]
enum Step<'n> {
    Named(&'n str),
    Item(usize),
}
