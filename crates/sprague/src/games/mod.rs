//! Game families, one file each: a typed game with its notation. The catalog
//! ([`crate::catalog`]) lists them; nothing here registers anything.

pub mod amazons;
pub mod cards;
pub mod cg;
pub mod chomp;
pub mod circle;
pub mod clobber;
pub mod coins;
pub mod col_snort;
pub mod connect;
pub mod cram;
pub mod cutcake;
pub mod domineering;
pub mod ends;
pub mod fibonacci;
pub mod flipping;
pub mod graph_file;
pub mod grid;
pub mod grundy;
pub mod hackenbush;
pub mod median;
pub mod mnk;
pub mod moore;
pub mod nim;
pub mod node_kayles;
pub mod octal;
pub mod queues;
pub mod quixo;
pub mod split;
pub mod strips;
pub mod subtraction;
pub mod tartan;
pub mod teeko;
pub mod toads_frogs;
pub mod wythoff;
