//! A JSON environment read as it comes, one item of its lists at a time: a payload of
//! any size is never held whole, nor as one tree (a tree takes ten times its text). The
//! bytes are measured as they arrive, so that nothing nests past
//! [`aas_model::MAX_DEPTH`], and no item — nor a name of the environment's, nor what lies
//! between two items — is larger than [`MAX_ITEM_BYTES`] (the parser holds a name whole).

use std::cell::Cell;
use std::fmt;
use std::io::{BufReader, Read};
use std::rc::Rc;

use serde::de::Visitor;
use serde::de::{self, DeserializeSeed, Deserializer as _, IgnoredAny, MapAccess, SeqAccess};
use serde_json::Value as Json;

use crate::items::{item_too_large, MAX_ITEM_BYTES};
use crate::{Error, Result};

/// The lists of an environment read item by item: V3's three and V2's assets.
const LISTS: [&str; 4] = [
    "assetAdministrationShells",
    "submodels",
    "conceptDescriptions",
    "assets",
];

/// What an environment's reading meets, in the order the payload writes it.
pub(crate) enum Met<'a> {
    /// A list of the environment begins (its value is a list).
    List(&'a str),
    /// An item of a list.
    Item(&'a str, Json),
    /// Another property of the environment.
    Other(&'a str),
    /// A list's name with a value that is not a list (`null`, say).
    NoList(&'a str),
}

/// Reads JSON environment payload `part` (past its first byte's whitespace) as it comes,
/// handing each of what it meets to `each`; an error of `each` stops the reading.
pub(crate) fn each_item(
    part: &str,
    payload: impl Read,
    each: &mut dyn FnMut(Met) -> Result<()>,
) -> Result<()> {
    let measure = Rc::new(Measure::default());
    let measured = Measured {
        inner: payload,
        measure: Rc::clone(&measure),
        depth: aas_model::DepthScan::default(),
    };
    // serde_json reads a reader a byte at a time: from a buffer.
    let mut json =
        serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, measured));
    let mut failed = None;
    let environment = Environment {
        each,
        failed: &mut failed,
        measure: &measure,
    };
    let read = json.deserialize_map(environment).and_then(|()| json.end());
    match (failed, read) {
        (Some(error), _) => Err(error),
        (None, Ok(())) => Ok(()),
        (None, Err(e)) => Err(match measure.too_deep.take() {
            Some(deep) => Error::not_aas(part, deep),
            None if e.is_io() => Error::Unreadable {
                part: part.to_owned(),
                source: e.into(),
            },
            None => Error::not_aas(part, e),
        }),
    }
}

/// What the reading has measured of the bytes so far, shared by the reader that measures
/// and the reading that tells it where items begin.
#[derive(Default)]
struct Measure {
    read: Cell<u64>,
    /// Where (in bytes read) the stretch being read began: an item, a name, or what lies
    /// between them.
    stretch_from: Cell<u64>,
    too_deep: Cell<Option<aas_model::TooDeep>>,
}

impl Measure {
    /// Reads what `read` reads as a stretch of its own.
    fn stretch_begins<T>(&self, read: impl FnOnce() -> T) -> T {
        self.stretch_from.set(self.read.get());
        read()
    }
}

/// The payload's reader, measuring each piece it reads.
struct Measured<R> {
    inner: R,
    measure: Rc<Measure>,
    depth: aas_model::DepthScan,
}

impl<R: Read> Read for Measured<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let measure = &self.measure;
        measure.read.set(measure.read.get() + n as u64);
        if let Err(deep) = self.depth.feed(&buf[..n]) {
            measure.too_deep.set(Some(deep));
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                deep.to_string(),
            ));
        }
        // Counted as read, not as parsed: the bound holds within a buffer (64 KiB).
        if measure.read.get() - measure.stretch_from.get() > MAX_ITEM_BYTES as u64 {
            return Err(item_too_large());
        }
        Ok(n)
    }
}

/// The environment's object: each list item by item, anything else passed over.
struct Environment<'a> {
    each: &'a mut dyn FnMut(Met) -> Result<()>,
    failed: &'a mut Option<Error>,
    measure: &'a Measure,
}

impl Environment<'_> {
    /// Hands `met` on; an error of its is kept, and the parser told to stop.
    fn tell<E: de::Error>(&mut self, met: Met) -> std::result::Result<(), E> {
        (self.each)(met).map_err(|error| {
            *self.failed = Some(error);
            E::custom("stopped")
        })
    }
}

impl<'de> Visitor<'de> for Environment<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an AAS environment (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(key) = self.measure.stretch_begins(|| map.next_key::<String>())? {
            match LISTS.contains(&key.as_str()) {
                true => {
                    let list = List {
                        name: &key,
                        environment: &mut self,
                    };
                    map.next_value_seed(list)?;
                }
                false => {
                    map.next_value::<IgnoredAny>()?;
                    self.tell(Met::Other(&key))?;
                }
            }
        }
        Ok(())
    }
}

/// The value of a list's name: item by item where it is a list, else passed over.
struct List<'l, 'a> {
    name: &'l str,
    environment: &'l mut Environment<'a>,
}

impl<'de> DeserializeSeed<'de> for List<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, json: D) -> std::result::Result<(), D::Error> {
        json.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for List<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> std::result::Result<(), A::Error> {
        let environment = self.environment;
        environment.tell(Met::List(self.name))?;
        let measure = environment.measure;
        loop {
            match measure.stretch_begins(|| items.next_element::<Json>())? {
                Some(item) => environment.tell(Met::Item(self.name, item))?,
                None => return Ok(()),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        self.not_a_list()
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> std::result::Result<(), E> {
        self.not_a_list()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> std::result::Result<(), E> {
        self.not_a_list()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> std::result::Result<(), E> {
        self.not_a_list()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> std::result::Result<(), E> {
        self.not_a_list()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> std::result::Result<(), E> {
        self.not_a_list()
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<(), E> {
        self.not_a_list()
    }
}

impl List<'_, '_> {
    fn not_a_list<E: de::Error>(self) -> std::result::Result<(), E> {
        self.environment.tell(Met::NoList(self.name))
    }
}
