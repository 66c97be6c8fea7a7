//! Built-in extraction domains: which entity and relationship types the model is asked
//! for in each kind of document, and what to look for.

/// Entity and relationship types for one kind of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomainPreset {
    /// Domain name as `--domain` takes it.
    pub name: &'static str,
    /// Entity types the model may use.
    pub entity_types: &'static [&'static str],
    /// Relationship types the model may use.
    pub relation_types: &'static [&'static str],
    /// One line for the prompt: what matters in this kind of document.
    pub focus: &'static str,
}

const FINANCIAL_ENTITIES: &[&str] = &[
    "organization",
    "person",
    "money",
    "percentage",
    "date",
    "metric",
    "product",
    "location",
    "legal_reference",
];
const FINANCIAL_RELATIONS: &[&str] = &[
    "has_value",
    "grew_by",
    "subsidiary_of",
    "holds_title",
    "operates_in",
    "references",
];
const LEGAL_ENTITIES: &[&str] = &[
    "organization",
    "person",
    "money",
    "date",
    "legal_reference",
    "location",
    "percentage",
];
const LEGAL_RELATIONS: &[&str] = &[
    "governed_by",
    "references",
    "holds_title",
    "subsidiary_of",
    "has_value",
    "operates_in",
];

/// The built-in domains, in `--domain` order.
pub const DOMAINS: &[DomainPreset] = &[
    DomainPreset {
        name: "sec_10k",
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "an annual report on Form 10-K: the company, its segments and subsidiaries, \
                officers, financial metrics with their values and periods, risk factors",
    },
    DomainPreset {
        name: "sec_10q",
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "a quarterly report on Form 10-Q: the company, segments, quarterly financial \
                metrics with their values and periods",
    },
    DomainPreset {
        name: "earnings",
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "an earnings release: reported metrics, their values, growth rates and guidance",
    },
    DomainPreset {
        name: "financial",
        entity_types: FINANCIAL_ENTITIES,
        relation_types: FINANCIAL_RELATIONS,
        focus: "a financial document: organisations, amounts, rates and the metrics they measure",
    },
    DomainPreset {
        name: "legal",
        entity_types: LEGAL_ENTITIES,
        relation_types: LEGAL_RELATIONS,
        focus: "a legal document (court filing, regulation): parties, courts, statutes and \
                sections cited, dates",
    },
    DomainPreset {
        name: "legal_contract",
        entity_types: LEGAL_ENTITIES,
        relation_types: LEGAL_RELATIONS,
        focus: "a contract: the parties, defined terms, amounts, dates, governing law and the \
                sections that refer to each other",
    },
    DomainPreset {
        name: "medical",
        entity_types: &[
            "organization",
            "person",
            "product",
            "date",
            "metric",
            "percentage",
            "location",
        ],
        relation_types: &["has_value", "references", "operates_in", "holds_title"],
        focus: "a medical or clinical document: sponsors, investigators, drugs and devices, \
                endpoints and their values",
    },
    DomainPreset {
        name: "insurance",
        entity_types: &[
            "organization",
            "person",
            "money",
            "percentage",
            "date",
            "product",
            "legal_reference",
        ],
        relation_types: &["has_value", "governed_by", "references", "subsidiary_of"],
        focus: "an insurance policy: insurer, insured, coverages, limits, deductibles, \
                exclusions and dates",
    },
    DomainPreset {
        name: "generic",
        entity_types: FINANCIAL_ENTITIES,
        relation_types: &[
            "has_value",
            "grew_by",
            "subsidiary_of",
            "holds_title",
            "operates_in",
            "governed_by",
            "references",
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
        self.0.name
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
        preset(s).map(Domain).ok_or_else(|| {
            format!(
                "unknown domain `{s}` (expected one of: {})",
                domain_names().join(", ")
            )
        })
    }
}

impl std::fmt::Display for Domain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The preset called `name`, if there is one.
pub fn preset(name: &str) -> Option<&'static DomainPreset> {
    DOMAINS.iter().find(|d| d.name == name)
}

/// Names of the built-in domains.
pub fn domain_names() -> Vec<&'static str> {
    DOMAINS.iter().map(|d| d.name).collect()
}

/// The entity and relationship types to ask for: the preset's, then the user's custom
/// types (lowercased, spaces as underscores), without duplicates.
pub fn types_for(
    preset: &DomainPreset,
    custom_entities: &[String],
    custom_relations: &[String],
) -> (Vec<String>, Vec<String>) {
    fn merged(base: &[&str], custom: &[String]) -> Vec<String> {
        let mut out: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        for c in custom {
            let c = c.trim().to_lowercase().replace([' ', '-'], "_");
            if !c.is_empty() && !out.contains(&c) {
                out.push(c);
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
    fn every_domain_of_the_spec_has_a_preset() {
        for name in [
            "sec_10k",
            "sec_10q",
            "earnings",
            "financial",
            "legal",
            "legal_contract",
            "medical",
            "insurance",
            "generic",
        ] {
            assert!(preset(name).is_some(), "{name}");
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
            &["Clause Type".into(), "person".into()],
            &["terminates".into()],
        );
        assert_eq!(e.last().unwrap(), "clause_type");
        assert_eq!(e.iter().filter(|t| *t == "person").count(), 1);
        assert_eq!(r.last().unwrap(), "terminates");
    }
}
