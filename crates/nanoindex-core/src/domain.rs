//! The extraction domains: the one list of names that the tree's detector writes into
//! `DocumentTree.domain`, `--domain` accepts and the engine's presets (entity and
//! relationship types per domain) are keyed by.

use std::fmt;
use std::str::FromStr;

/// A built-in extraction domain. Its name (`sec_10k`) is what trees store and `--domain`
/// takes; an unknown name is an error ([`FromStr`]), never a silent `generic`.
///
/// ```
/// use nanoindex_core::DomainName;
/// assert_eq!("legal_contract".parse::<DomainName>(), Ok(DomainName::LegalContract));
/// assert_eq!(DomainName::Sec10k.as_str(), "sec_10k");
/// assert!("sec10k".parse::<DomainName>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DomainName {
    /// An annual report on SEC Form 10-K.
    Sec10k,
    /// A quarterly report on SEC Form 10-Q.
    Sec10q,
    /// An earnings release.
    Earnings,
    /// Other financial statements and reports.
    Financial,
    /// Court filings, opinions, statutes and regulations.
    Legal,
    /// Contracts and agreements.
    LegalContract,
    /// Clinical protocols and medical documents.
    Medical,
    /// Insurance policies.
    Insurance,
    /// Any other document.
    Generic,
}

impl DomainName {
    /// Every domain, in `--domain` order (`generic` last).
    pub const ALL: [DomainName; 9] = [
        DomainName::Sec10k,
        DomainName::Sec10q,
        DomainName::Earnings,
        DomainName::Financial,
        DomainName::Legal,
        DomainName::LegalContract,
        DomainName::Medical,
        DomainName::Insurance,
        DomainName::Generic,
    ];

    /// The name as trees store it and `--domain` takes it (`sec_10k`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            DomainName::Sec10k => "sec_10k",
            DomainName::Sec10q => "sec_10q",
            DomainName::Earnings => "earnings",
            DomainName::Financial => "financial",
            DomainName::Legal => "legal",
            DomainName::LegalContract => "legal_contract",
            DomainName::Medical => "medical",
            DomainName::Insurance => "insurance",
            DomainName::Generic => "generic",
        }
    }

    /// Every name, in `--domain` order.
    #[must_use]
    pub fn names() -> Vec<&'static str> {
        DomainName::ALL.iter().map(|d| d.as_str()).collect()
    }
}

impl FromStr for DomainName {
    type Err = String;

    /// # Errors
    /// A message naming the unknown domain and the known ones.
    fn from_str(s: &str) -> Result<Self, String> {
        DomainName::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown domain `{s}` (expected one of: {})",
                    DomainName::names().join(", ")
                )
            })
    }
}

impl fmt::Display for DomainName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::DomainName;

    #[test]
    fn every_name_parses_back_to_its_domain() {
        for d in DomainName::ALL {
            assert_eq!(d.as_str().parse::<DomainName>(), Ok(d));
        }
        let error = "medicine".parse::<DomainName>().unwrap_err();
        assert!(
            error.contains("`medicine`") && error.contains("legal_contract"),
            "{error}"
        );
    }
}
