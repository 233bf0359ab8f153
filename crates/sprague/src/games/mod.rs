//! Game families, one file each. Every family registers itself in [`families`].

pub mod cards;
pub mod coins;
pub mod flipping;
pub mod nim;
pub mod tartan;

use crate::spec::Family;

/// Every registered family, in catalog order.
pub fn families() -> Vec<Box<dyn Family>> {
    vec![
        Box::new(nim::NimFamily),
        Box::new(coins::CoinFamily),
        Box::new(tartan::TartanFamily),
        Box::new(cards::CardsFamily),
        Box::new(flipping::FlipFamily),
    ]
}
