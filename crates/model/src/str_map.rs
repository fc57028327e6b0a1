//! A map from strings to values that keeps every string in one growing buffer.
//!
//! A bake admits every motion's name, custom properties and `@keyframes` names into maps
//! ([`crate::load::Names`]): a few strings a motion, 50,000 for 10,000 springs. Held as
//! `HashMap<Box<str>, _>` they cost an allocation each to insert and a free each to drop
//! (measured: benches/README.md); here they cost a copy into the buffer, and dropping the
//! map frees two blocks.

use hashbrown::HashTable;
use xxhash_rust::xxh3::xxh3_64;

/// Where a string is in a [`StrMap`]'s buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    start: usize,
    end: usize,
}

/// A map from strings to values, the strings in one buffer, with room for other strings the
/// values refer to ([`StrMap::store`]).
#[derive(Debug)]
pub struct StrMap<V> {
    text: String,
    table: HashTable<(Span, V)>,
}

impl<V> Default for StrMap<V> {
    fn default() -> Self {
        Self {
            text: String::new(),
            table: HashTable::new(),
        }
    }
}

impl<V> StrMap<V> {
    /// The key equal to `key` and its value, if any.
    pub fn get_key_value(&self, key: &str) -> Option<(&str, &V)> {
        self.find(xxh3_64(key.as_bytes()), key)
    }

    /// [`StrMap::get_key_value`] of `key`, whose hash is `hash`.
    fn find(&self, hash: u64, key: &str) -> Option<(&str, &V)> {
        let text = &self.text;
        self.table
            .find(hash, |(span, _)| &text[span.start..span.end] == key)
            .map(|(span, value)| (&text[span.start..span.end], value))
    }

    /// The value of `key`, if any.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.get_key_value(key).map(|(_, value)| value)
    }

    /// Inserts `key` with the value `make` gives unless it is there already.
    pub fn insert_new(&mut self, key: &str, make: impl FnOnce(&mut Self) -> V) {
        let hash = xxh3_64(key.as_bytes());
        if self.find(hash, key).is_some() {
            return;
        }
        let value = make(self);
        let span = self.store(key);
        let text = &self.text;
        self.table.insert_unique(hash, (span, value), |(span, _)| {
            xxh3_64(&text.as_bytes()[span.start..span.end])
        });
    }

    /// Keeps `text` in the buffer, for a value to refer to.
    pub fn store(&mut self, text: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(text);
        Span {
            start,
            end: self.text.len(),
        }
    }

    /// The text of `span`, which [`StrMap::store`] gave.
    pub fn text(&self, span: Span) -> &str {
        &self.text[span.start..span.end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_stored_texts_read_back_and_the_first_value_stays() {
        let mut map = StrMap::default();
        for i in 0..1000 {
            let key = format!("motion-{i}");
            map.insert_new(&key, |map| map.store(&format!("value {i}")));
        }
        map.insert_new("motion-7", |map| map.store("replaced"));
        for i in 0..1000 {
            let key = format!("motion-{i}");
            let (found, span) = map.get_key_value(&key).unwrap();
            assert_eq!(found, key);
            assert_eq!(map.text(*span), format!("value {i}"));
        }
        assert!(map.get("motion-1000").is_none());
        assert!(map.get("motion").is_none());
        assert!(map.get("").is_none());
    }
}
