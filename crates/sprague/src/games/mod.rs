//! Game families, one file each. Every family registers itself in [`families`].

pub mod amazons;
pub mod cards;
pub mod circle;
pub mod clobber;
pub mod coins;
pub mod col_snort;
pub mod connect;
pub mod cutcake;
pub mod domineering;
pub mod ends;
pub mod fibonacci;
pub mod flipping;
pub mod grid;
pub mod grundy;
pub mod hackenbush;
pub mod median;
pub mod mnk;
pub mod moore;
pub mod nim;
pub mod octal;
pub mod queues;
pub mod quixo;
pub mod strips;
pub mod subtraction;
pub mod tartan;
pub mod teeko;
pub mod toads_frogs;
pub mod wythoff;

use crate::spec::Family;

/// Every registered family, in catalog order.
pub fn families() -> Vec<Box<dyn Family>> {
    vec![
        Box::new(nim::NimFamily),
        Box::new(subtraction::SubtractionFamily),
        Box::new(octal::OctalFamily),
        Box::new(grundy::GrundyFamily),
        Box::new(strips::StripsFamily),
        Box::new(wythoff::WythoffFamily),
        Box::new(moore::MooreFamily),
        Box::new(fibonacci::FibFamily),
        Box::new(circle::CircleFamily),
        Box::new(ends::EndsFamily),
        Box::new(median::MedianFamily),
        Box::new(queues::QueuesFamily),
        Box::new(coins::CoinFamily),
        Box::new(tartan::TartanFamily),
        Box::new(flipping::FlipFamily),
        Box::new(cards::CardsFamily),
        Box::new(mnk::MnkFamily),
        Box::new(connect::ConnectFamily),
        Box::new(crate::script::ScriptFamily),
        Box::new(quixo::QuixoFamily),
        Box::new(teeko::TeekoFamily),
    ]
}
