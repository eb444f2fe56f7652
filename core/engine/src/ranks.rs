//! Piece ranks.

pub const COMMON: u8 = 0;
pub const HEROIC: u8 = 1;
pub const LEGENDARY: u8 = 2;
pub const RANK_NAMES: [&str; 3] = ["common", "heroic", "legendary"];

/// The rank called `name` ("common", "heroic", "legendary").
pub fn rank_from_name(name: &str) -> Option<u8> {
    RANK_NAMES.iter().position(|&n| n == name).map(|i| i as u8)
}
