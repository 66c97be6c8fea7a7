//! The entity graph as stored in `<doc>.graph.json`: entities, relationships and
//! cross-references, each pointing back at tree nodes by id. Entity and relationship types are
//! typed ([`EntityType`], [`RelationType`]): the built-in ones have one definition here, and
//! a custom one is a checked name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::id::NodeId;

/// Something named in the document: an organisation, an amount, a section, …
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// Canonical name.
    pub name: String,
    /// Its type (written as `organization`, `money`, …, or the custom type's name).
    #[serde(default = "other")]
    pub entity_type: EntityType,
    /// Short description or context.
    #[serde(default)]
    pub description: String,
    /// Ids of the tree nodes the entity was found in.
    #[serde(default)]
    pub source_node_ids: Vec<NodeId>,
}

/// NanoIndex's type for an entity written without one.
fn other() -> EntityType {
    EntityType::Custom("Other".to_string())
}

/// A typed, directed relation between two entities (by name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Relationship {
    /// Name of the source entity.
    pub source: String,
    /// Name of the target entity.
    pub target: String,
    /// Its type (our addition; optional in NanoIndex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation_type: Option<RelationType>,
    /// Free-text keywords, as NanoIndex stores them.
    #[serde(default)]
    pub keywords: String,
    /// Short description.
    #[serde(default)]
    pub description: String,
    /// Ids of the tree nodes the relation was found in.
    #[serde(default)]
    pub source_node_ids: Vec<NodeId>,
}

/// A reference such as "Section 2.5(b)" or "Item 7" in one node's text, resolved to the node
/// that carries that numbering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossReference {
    /// Node whose text contains the reference.
    pub source_node_id: NodeId,
    /// Node the reference names.
    pub target_node_id: NodeId,
    /// The reference as written ("Section 2.5(b)").
    pub text: String,
    /// 1-based page where the reference occurs.
    pub page: u32,
}

/// The graph file of one document.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DocumentGraph {
    /// Same as the tree's `doc_name`.
    #[serde(default)]
    pub doc_name: String,
    /// [`crate::FORMAT_VERSION`] of the writer.
    #[serde(default)]
    pub format_version: u32,
    /// Entities.
    #[serde(default)]
    pub entities: Vec<Entity>,
    /// Relationships between entities.
    #[serde(default)]
    pub relationships: Vec<Relationship>,
    /// Resolved cross-references between nodes.
    #[serde(default)]
    pub cross_references: Vec<CrossReference>,
}

/// Why a custom entity or relationship type name is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what} type `{name}`: use letters, digits and underscores, starting with a letter (at most 40), e.g. `trial_phase`")]
pub struct TypeNameError {
    /// `entity` or `relationship`.
    pub what: &'static str,
    /// The name as given.
    pub name: String,
}

/// The name of a custom type as a user writes it (`Trial phase`, `trial-phase`): lowercase,
/// spaces and hyphens as underscores; refused unless it is letters, digits and underscores,
/// starting with a letter, at most 40 characters.
fn custom_name(name: &str, what: &'static str) -> Result<String, TypeNameError> {
    let normal: String = name
        .trim()
        .to_lowercase()
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    let valid = normal.chars().next().is_some_and(char::is_alphabetic)
        && normal.chars().count() <= 40
        && normal.chars().all(|c| c.is_alphanumeric() || c == '_');
    if valid {
        Ok(normal)
    } else {
        Err(TypeNameError {
            what,
            name: name.to_string(),
        })
    }
}

/// Declares a type enum with built-in variants and their JSON names, a `Custom` variant,
/// and the conversions shared by both type enums (one definition of the mechanics).
macro_rules! type_names {
    ($(#[$meta:meta])* $name:ident, $what:literal, { $($(#[$vmeta:meta])* $variant:ident => $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A type the user (or another tool's file) named.
            Custom(String),
        }

        impl $name {
            /// Every built-in type, in declaration order.
            pub const BUILT_IN: &'static [$name] = &[$($name::$variant,)*];

            /// The name written in JSON and prompts (`legal_reference`).
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)*
                    $name::Custom(name) => name,
                }
            }

            /// The built-in type called `name` exactly, else a custom type keeping `name` as
            /// written (for reading files of other tools, which may use any spelling).
            #[must_use]
            pub fn from_file(name: &str) -> $name {
                match name {
                    $($text => $name::$variant,)*
                    other => $name::Custom(other.to_string()),
                }
            }
        }

        impl FromStr for $name {
            type Err = TypeNameError;

            /// A type as a user gives it: a built-in name, else a custom name normalised
            /// (`Trial phase` → `trial_phase`).
            ///
            /// # Errors
            /// [`TypeNameError`] when the name is not letters, digits and underscores.
            fn from_str(name: &str) -> Result<$name, TypeNameError> {
                let normal = custom_name(name, $what)?;
                Ok(match $name::from_file(&normal) {
                    $name::Custom(_) => $name::Custom(normal),
                    known => known,
                })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(name: &str) -> $name {
                $name::from_file(name)
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let name = String::deserialize(deserializer)?;
                Ok($name::from_file(&name))
            }
        }
    };
}

type_names!(
    /// The type of an entity (CLARIFICATIONS "Entity types", plus the graph's own
    /// `defined_term`, `section` and `title`).
    EntityType, "entity", {
        /// A company, court, agency, party.
        Organization => "organization",
        /// A named person.
        Person => "person",
        /// An amount of money (`$2.5 million`).
        Money => "money",
        /// A percentage (`23.4%`).
        Percentage => "percentage",
        /// A date (`March 1, 2024`).
        Date => "date",
        /// A financial or clinical measure (`net sales`).
        Metric => "metric",
        /// A product, drug or device.
        Product => "product",
        /// A place (a state whose law governs).
        Location => "location",
        /// A statute, rule, agreement or section cited.
        LegalReference => "legal_reference",
        /// A term a contract defines (`"Effective Date"`).
        DefinedTerm => "defined_term",
        /// A numbered section of the document (a cross-reference target).
        Section => "section",
        /// A person's title or office (`Chief Executive Officer`).
        Title => "title",
    }
);

type_names!(
    /// The type of a relationship (SPEC "Entity graph").
    RelationType, "relationship", {
        /// A metric and its value.
        HasValue => "has_value",
        /// A metric and its change (negative for a fall).
        GrewBy => "grew_by",
        /// A company and its parent.
        SubsidiaryOf => "subsidiary_of",
        /// A person and their title.
        HoldsTitle => "holds_title",
        /// An organisation and where it operates.
        OperatesIn => "operates_in",
        /// An agreement and the law that governs it.
        GovernedBy => "governed_by",
        /// A section and a section it cites.
        References => "references",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_read_any_file_and_check_what_users_give() {
        assert_eq!(
            EntityType::from_file("legal_reference"),
            EntityType::LegalReference
        );
        assert_eq!(
            EntityType::from_file("Other"),
            EntityType::Custom("Other".into())
        );
        assert_eq!(
            "Trial phase".parse::<EntityType>(),
            Ok(EntityType::Custom("trial_phase".into()))
        );
        assert_eq!("MONEY".parse::<EntityType>(), Ok(EntityType::Money));
        assert_eq!(
            "treats".parse::<RelationType>(),
            Ok(RelationType::Custom("treats".into()))
        );
        let error = "drug!".parse::<EntityType>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid entity type `drug!`: use letters, digits and underscores, starting with a letter (at most 40), e.g. `trial_phase`"
        );
        assert!("".parse::<RelationType>().is_err());
        let json = serde_json::to_string(&RelationType::HasValue).unwrap();
        assert_eq!(json, "\"has_value\"");
        let back: RelationType = serde_json::from_str(&json).unwrap();
        assert_eq!(back, RelationType::HasValue);
        assert_eq!(EntityType::Metric, "metric");
    }
}
