//! Script positions as hashable keys: Rhai's `Dynamic` is neither `Hash` nor `Eq`.

use rhai::Dynamic;
use serde_json::Value as Json;
use std::fmt::{self, Write};

/// How deeply arrays and maps may nest in a position.
const MAX_DEPTH: usize = 64;

/// A script position in canonical form: the values a script may use as positions.
///
/// `Display` writes it as a Rhai literal without spaces (`[1,2]`, `#{a:1}`, `"x"`), so that it
/// is one command-line word that parses back to the same key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// `()`.
    Unit,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A character.
    Char(char),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Key>),
    /// An object map, sorted by property name.
    Map(Vec<(String, Key)>),
}

impl Key {
    /// About how many bytes the key holds, itself included.
    pub fn bytes(&self) -> usize {
        let own = std::mem::size_of::<Key>();
        match self {
            Key::Unit | Key::Bool(_) | Key::Int(_) | Key::Char(_) => own,
            Key::Str(s) => own + s.capacity(),
            Key::Array(items) => own + items.iter().map(Key::bytes).sum::<usize>(),
            Key::Map(entries) => {
                own + entries
                    .iter()
                    .map(|(name, value)| {
                        std::mem::size_of::<String>() + name.capacity() + value.bytes()
                    })
                    .sum::<usize>()
            }
        }
    }

    /// The key of a script value.
    ///
    /// # Errors
    /// A description of the value when it cannot be a position (a float, a function pointer),
    /// or nests deeper than 64 levels.
    pub fn from_dynamic(value: &Dynamic) -> Result<Key, String> {
        Key::convert(value, 0)
    }

    fn convert(value: &Dynamic, depth: usize) -> Result<Key, String> {
        if depth > MAX_DEPTH {
            return Err(format!("a position nested deeper than {MAX_DEPTH} levels"));
        }
        if value.is_unit() {
            return Ok(Key::Unit);
        }
        if let Ok(b) = value.as_bool() {
            return Ok(Key::Bool(b));
        }
        if let Ok(n) = value.as_int() {
            return Ok(Key::Int(n));
        }
        if let Ok(c) = value.as_char() {
            return Ok(Key::Char(c));
        }
        if value.is_string() {
            return Ok(Key::Str(value.to_string()));
        }
        if let Some(array) = value.read_lock::<rhai::Array>() {
            return array
                .iter()
                .map(|v| Key::convert(v, depth + 1))
                .collect::<Result<_, _>>()
                .map(Key::Array);
        }
        if let Some(map) = value.read_lock::<rhai::Map>() {
            // A BTreeMap: already sorted by name.
            return map
                .iter()
                .map(|(k, v)| Ok((k.to_string(), Key::convert(v, depth + 1)?)))
                .collect::<Result<_, String>>()
                .map(Key::Map);
        }
        Err(format!(
            "a {}, which cannot be a position (use integers, strings, characters, booleans, arrays or maps)",
            value.type_name()
        ))
    }

    /// The script value of the key.
    pub fn to_dynamic(&self) -> Dynamic {
        match self {
            Key::Unit => Dynamic::UNIT,
            Key::Bool(b) => Dynamic::from_bool(*b),
            Key::Int(n) => Dynamic::from_int(*n),
            Key::Char(c) => Dynamic::from_char(*c),
            Key::Str(s) => Dynamic::from(s.clone()),
            Key::Array(items) => Dynamic::from_array(items.iter().map(Key::to_dynamic).collect()),
            Key::Map(entries) => Dynamic::from_map(
                entries
                    .iter()
                    .map(|(k, v)| (k.as_str().into(), v.to_dynamic()))
                    .collect(),
            ),
        }
    }

    /// The key as JSON: integers as numbers, strings and characters as strings, `()` as null.
    pub fn to_json(&self) -> Json {
        match self {
            Key::Unit => Json::Null,
            Key::Bool(b) => Json::Bool(*b),
            Key::Int(n) => Json::from(*n),
            Key::Char(c) => Json::String(c.to_string()),
            Key::Str(s) => Json::String(s.clone()),
            Key::Array(items) => Json::Array(items.iter().map(Key::to_json).collect()),
            Key::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

fn write_quoted(f: &mut fmt::Formatter<'_>, text: &str, quote: char) -> fmt::Result {
    f.write_char(quote)?;
    for c in text.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            c if c == quote => write!(f, "\\{c}")?,
            c => f.write_char(c)?,
        }
    }
    f.write_char(quote)
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Unit => f.write_str("()"),
            Key::Bool(b) => write!(f, "{b}"),
            Key::Int(n) => write!(f, "{n}"),
            Key::Char(c) => write_quoted(f, &c.to_string(), '\''),
            Key::Str(s) => write_quoted(f, s, '"'),
            Key::Array(items) => {
                f.write_char('[')?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_char(']')
            }
            Key::Map(entries) => {
                f.write_str("#{")?;
                for (i, (name, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    if is_identifier(name) {
                        f.write_str(name)?;
                    } else {
                        write_quoted(f, name, '"')?;
                    }
                    write!(f, ":{value}")?;
                }
                f.write_char('}')
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_parse_back_to_the_same_key() {
        let engine = rhai::Engine::new();
        for text in [
            "5",
            "-3",
            "\"a b\\\"c\"",
            "'x'",
            "true",
            "()",
            "[1,[2,3],\"s\"]",
            "#{a:1,\"b c\":[true]}",
        ] {
            let value = engine.eval_expression::<Dynamic>(text).unwrap();
            let key = Key::from_dynamic(&value).unwrap();
            let again = engine.eval_expression::<Dynamic>(&key.to_string()).unwrap();
            assert_eq!(Key::from_dynamic(&again).unwrap(), key, "{text}");
            assert_eq!(Key::from_dynamic(&key.to_dynamic()).unwrap(), key);
        }
    }

    #[test]
    fn floats_are_not_positions() {
        let err = Key::from_dynamic(&Dynamic::from_float(1.5)).unwrap_err();
        assert!(err.contains("cannot be a position"), "{err}");
    }
}
