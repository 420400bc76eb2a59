//! The parameters of a request: the query string of a GET, or the JSON object of a POST, with
//! the same names either way. Each is a string (a number in JSON will do); a name given twice,
//! or a name the endpoint does not know, is an error that says so.

use std::collections::BTreeMap;

/// The parameters of one request, by name.
#[derive(Debug, Default)]
pub(crate) struct Params(BTreeMap<String, String>);

impl Params {
    /// The parameters of a query string: `name=value` pairs joined by `&`, percent-encoded,
    /// `+` for a space.
    pub(crate) fn from_query(query: &str) -> Result<Params, String> {
        let mut params = Params::default();
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            params.insert(decode(name)?, decode(value)?)?;
        }
        Ok(params)
    }

    /// The parameters of a JSON object whose values are strings or numbers. Read pair by pair,
    /// so that a name given twice is refused as in a query string (a map keeps the last).
    pub(crate) fn from_json(body: &[u8]) -> Result<Params, String> {
        let Pairs(object) = serde_json::from_slice(body)
            .map_err(|error| format!("the body is not a JSON object: {error}"))?;
        let mut params = Params::default();
        for (name, value) in object {
            let text = match value {
                serde_json::Value::String(text) => text,
                serde_json::Value::Number(number) => number.to_string(),
                other => {
                    return Err(format!(
                        "\"{name}\" is {other}: each parameter is a string or a number"
                    ));
                }
            };
            params.insert(name, text)?;
        }
        Ok(params)
    }

    fn insert(&mut self, name: String, value: String) -> Result<(), String> {
        if self.0.contains_key(&name) {
            return Err(format!("the parameter \"{name}\" is given twice"));
        }
        self.0.insert(name, value);
        Ok(())
    }

    /// The parameters, if they are all among `known`; an error naming the first stranger and
    /// what is known otherwise.
    pub(crate) fn only(self, known: &[&str]) -> Result<Params, String> {
        match self.0.keys().find(|name| !known.contains(&name.as_str())) {
            None => Ok(self),
            Some(name) if known.is_empty() => {
                Err(format!("unknown parameter \"{name}\": this takes none"))
            }
            Some(name) => Err(format!(
                "unknown parameter \"{name}\": this takes {}",
                known.join(", ")
            )),
        }
    }

    /// The value of `name`, if given.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

/// A JSON object's members in the order given, names repeated as they come.
struct Pairs(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Pairs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Pairs, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = Pairs;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Pairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(Pairs(pairs))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// `text` with `+` made a space and every `%XX` the byte it encodes; an error for a bad escape
/// or bytes that are not UTF-8.
fn decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|pair| std::str::from_utf8(pair).ok())
                    .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                    .ok_or_else(|| format!("bad escape at byte {} of the query string", i + 1))?;
                out.push(hex);
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "the query string is not UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_reads_as_its_json_would() {
        let query = Params::from_query("game=4x4k3&moves=1%202+3").unwrap();
        let json = Params::from_json(br#"{"game":"4x4k3","moves":"1 2 3"}"#).unwrap();
        assert_eq!(query.0, json.0);
        assert_eq!(query.get("moves"), Some("1 2 3"));
    }

    #[test]
    fn bad_parameters_say_what_is_wrong() {
        assert!(
            Params::from_query("a=%2")
                .unwrap_err()
                .contains("bad escape")
        );
        assert!(Params::from_query("a=%ff").unwrap_err().contains("UTF-8"));
        assert!(Params::from_query("a=1&a=2").unwrap_err().contains("twice"));
        assert!(
            Params::from_json(b"[1]")
                .unwrap_err()
                .contains("JSON object")
        );
        assert!(
            Params::from_json(br#"{"a":[1]}"#)
                .unwrap_err()
                .contains("string or a number")
        );
        let error = Params::from_query("b=1").unwrap().only(&["a"]).unwrap_err();
        assert_eq!(error, "unknown parameter \"b\": this takes a");
    }
}
