//! Game families, one file each. Every family registers itself in [`families`].

pub mod connect;
pub mod mnk;
pub mod nim;

use crate::spec::Family;

/// Every registered family, in catalog order.
pub fn families() -> Vec<Box<dyn Family>> {
    vec![
        Box::new(nim::NimFamily),
        Box::new(mnk::MnkFamily),
        Box::new(connect::ConnectFamily),
    ]
}
