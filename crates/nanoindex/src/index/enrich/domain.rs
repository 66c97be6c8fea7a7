//! Built-in extraction domains: which entity and relationship types the model is asked
//! for in each kind of document, and what to look for.

use nanoindex_core::{DomainName, EntityType, RelationType};

/// Entity and relationship types for one kind of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomainPreset {
    /// The domain (its name is what `--domain` takes).
    pub name: DomainName,
    /// Entity types the model may use.
    pub entity_types: &'static [EntityType],
    /// Relationship types the model may use.
    pub relation_types: &'static [RelationType],
    /// One line for the prompt: what matters in this kind of document.
    pub focus: &'static str,
}

const FINANCIAL_ENTITIES: &[EntityType] = &[
    EntityType::Organization,
    EntityType::Person,
    EntityType::Money,
    EntityType::Percentage,
    EntityType::Date,
    EntityType::Metric,
    EntityType::Product,
    EntityType::Location,
    EntityType::LegalReference,
];
const FINANCIAL_RELATIONS: &[RelationType] = &[
    RelationType::HasValue,
    RelationType::GrewBy,
    RelationType::SubsidiaryOf,
    RelationType::HoldsTitle,
    RelationType::OperatesIn,
    RelationType::References,
];
const LEGAL_ENTITIES: &[EntityType] = &[
    EntityType::Organization,
    EntityType::Person,
    EntityType::Money,
    EntityType::Date,
    EntityType::LegalReference,
    EntityType::Location,
    EntityType::Percentage,
];
const LEGAL_RELATIONS: &[RelationType] = &[
    RelationType::GovernedBy,
    RelationType::References,
    RelationType::HoldsTitle,
    RelationType::SubsidiaryOf,
    RelationType::HasValue,
    RelationType::OperatesIn,
];

/// The built-in domains, in `--domain` order.
pub const DOMAINS: &[DomainPreset] = &[
    DomainPreset {
        name: DomainName::Sec10k,
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "an annual report on Form 10-K: the company, its segments and subsidiaries, \
                officers, financial metrics with their values and periods, risk factors",
    },
    DomainPreset {
        name: DomainName::Sec10q,
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "a quarterly report on Form 10-Q: the company, segments, quarterly financial \
                metrics with their values and periods",
    },
    DomainPreset {
        name: DomainName::Earnings,
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "an earnings release: reported metrics, their values, growth rates and guidance",
    },
    DomainPreset {
        name: DomainName::Financial,
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "a financial document: organisations, amounts, rates and the metrics they measure",
    },
    DomainPreset {
        name: DomainName::Legal,
        entity_types: LEGAL_ENTITIES,
        relation_types: LEGAL_RELATIONS,
        focus: "a legal document (court filing, regulation): parties, courts, statutes and \
                sections cited, dates",
    },
    DomainPreset {
        name: DomainName::LegalContract,
        entity_types: LEGAL_ENTITIES,
        relation_types: LEGAL_RELATIONS,
        focus: "a contract: the parties, defined terms, amounts, dates, governing law and the \
                sections that refer to each other",
    },
    DomainPreset {
        name: DomainName::Medical,
        entity_types: &[
            EntityType::Organization,
            EntityType::Person,
            EntityType::Product,
            EntityType::Date,
            EntityType::Metric,
            EntityType::Percentage,
            EntityType::Location,
        ],
        relation_types: &[
            RelationType::HasValue,
            RelationType::References,
            RelationType::OperatesIn,
            RelationType::HoldsTitle,
        ],
        focus: "a medical or clinical document: sponsors, investigators, drugs and devices, \
                endpoints and their values",
    },
    DomainPreset {
        name: DomainName::Insurance,
        entity_types: &[
            EntityType::Organization,
            EntityType::Person,
            EntityType::Money,
            EntityType::Percentage,
            EntityType::Date,
            EntityType::Product,
            EntityType::LegalReference,
        ],
        relation_types: &[
            RelationType::HasValue,
            RelationType::GovernedBy,
            RelationType::References,
            RelationType::SubsidiaryOf,
        ],
        focus: "an insurance policy: insurer, insured, coverages, limits, deductibles, \
                exclusions and dates",
    },
    DomainPreset {
        name: DomainName::Generic,
        entity_types: FINANCIAL_ENTITIES,
        relation_types: &[
            RelationType::HasValue,
            RelationType::GrewBy,
            RelationType::SubsidiaryOf,
            RelationType::HoldsTitle,
            RelationType::OperatesIn,
            RelationType::GovernedBy,
            RelationType::References,
        ],
        focus: "any document: the organisations, people, amounts, dates and places it names",
    },
];

/// A known extraction domain: one of [`DOMAINS`], so that a misspelt name is an error where
/// it is given (`"sec10k".parse::<Domain>()`), never a silent fall-back to `generic`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Domain(&'static DomainPreset);

impl Domain {
    /// The domain for any document (the last preset).
    #[must_use]
    pub fn generic() -> Domain {
        Domain(&DOMAINS[DOMAINS.len() - 1])
    }

    /// The name as `--domain` takes it (`sec_10k`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name.as_str()
    }

    /// The domain's entity and relationship types and focus.
    #[must_use]
    pub fn preset(self) -> &'static DomainPreset {
        self.0
    }
}

impl std::str::FromStr for Domain {
    type Err = String;

    /// # Errors
    /// A message naming the unknown domain and the known ones.
    fn from_str(s: &str) -> Result<Self, String> {
        let name: DomainName = s.parse()?;
        Ok(Domain(
            DOMAINS
                .iter()
                .find(|d| d.name == name)
                .expect("every domain has a preset (tested)"),
        ))
    }
}

impl std::fmt::Display for Domain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The preset called `name`, if there is one.
pub fn preset(name: &str) -> Option<&'static DomainPreset> {
    let name: DomainName = name.parse().ok()?;
    DOMAINS.iter().find(|d| d.name == name)
}

/// Names of the built-in domains.
pub fn domain_names() -> Vec<&'static str> {
    DomainName::names()
}

/// The entity and relationship types to ask for: the preset's, then the user's custom
/// types (already checked and normalised when parsed, see [`EntityType`]'s `FromStr`),
/// without duplicates.
pub fn types_for(
    preset: &DomainPreset,
    custom_entities: &[EntityType],
    custom_relations: &[RelationType],
) -> (Vec<EntityType>, Vec<RelationType>) {
    fn merged<T: Clone + PartialEq>(base: &[T], custom: &[T]) -> Vec<T> {
        let mut out: Vec<T> = base.to_vec();
        for c in custom {
            if !out.contains(c) {
                out.push(c.clone());
            }
        }
        out
    }
    (
        merged(preset.entity_types, custom_entities),
        merged(preset.relation_types, custom_relations),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_domain_has_one_preset_in_the_same_order() {
        let presets: Vec<DomainName> = DOMAINS.iter().map(|d| d.name).collect();
        assert_eq!(presets, DomainName::ALL);
        for name in DomainName::ALL {
            assert!(preset(name.as_str()).is_some(), "{name}");
        }
    }

    #[test]
    fn unknown_domains_are_errors_naming_the_known_ones() {
        let error = "sec10k".parse::<Domain>().unwrap_err();
        assert!(error.contains("unknown domain `sec10k`"), "{error}");
        assert!(error.contains("sec_10k"), "{error}");
        assert_eq!(
            "legal_contract".parse::<Domain>().unwrap().name(),
            "legal_contract"
        );
        assert_eq!(Domain::generic().name(), "generic");
    }

    #[test]
    fn custom_types_are_appended_once() {
        let (e, r) = types_for(
            preset("legal_contract").unwrap(),
            &["Clause Type".parse().unwrap(), "person".parse().unwrap()],
            &["terminates".parse().unwrap()],
        );
        assert_eq!(e.last().unwrap(), "clause_type");
        assert_eq!(e.iter().filter(|t| *t == "person").count(), 1);
        assert_eq!(r.last().unwrap(), "terminates");
    }
}
