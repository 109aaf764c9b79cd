//! The set operators shared by the square sets of both boards.

/// Implements, for a square set `$set` (a tuple struct over a `u64` with `EMPTY`) and its square
/// type `$square` (with a `const fn index`): the membership methods; `&`, `|`, `^` and their
/// assigning forms, and `-` (set difference), each taking anything that converts into the set;
/// `From<$square>`; and collecting squares into a set.
macro_rules! square_set {
    (@op $set:ident, $trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl<T: Into<$set>> core::ops::$trait<T> for $set {
            type Output = $set;
            #[inline]
            fn $fn(self, rhs: T) -> $set {
                $set(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<$set>> core::ops::$assign_trait<T> for $set {
            #[inline]
            fn $assign_fn(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    };
    ($set:ident, $square:ident) => {
        impl $set {
            /// The set holding only `sq`.
            #[inline]
            pub const fn from_square(sq: $square) -> $set {
                $set(1 << sq.index())
            }

            /// Whether `sq` is in the set.
            #[inline]
            pub const fn contains(self, sq: $square) -> bool {
                self.0 & (1 << sq.index()) != 0
            }

            /// Whether the set is empty.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether the set has at least one square.
            #[inline]
            pub const fn any(self) -> bool {
                self.0 != 0
            }

            /// Whether the set has two or more squares.
            #[inline]
            pub const fn more_than_one(self) -> bool {
                self.0 & self.0.wrapping_sub(1) != 0
            }

            /// The number of squares.
            #[inline]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// The set with `sq` added.
            #[inline]
            pub const fn with(self, sq: $square) -> $set {
                $set(self.0 | 1 << sq.index())
            }

            /// The set with `sq` removed.
            #[inline]
            pub const fn without(self, sq: $square) -> $set {
                $set(self.0 & !(1 << sq.index()))
            }
        }

        square_set!(@op $set, BitAnd, bitand, BitAndAssign, bitand_assign, &);
        square_set!(@op $set, BitOr, bitor, BitOrAssign, bitor_assign, |);
        square_set!(@op $set, BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

        impl<T: Into<$set>> core::ops::Sub<T> for $set {
            type Output = $set;
            /// The squares of `self` that are not in `rhs`.
            #[inline]
            fn sub(self, rhs: T) -> $set {
                $set(self.0 & !rhs.into().0)
            }
        }

        impl From<$square> for $set {
            #[inline]
            fn from(sq: $square) -> $set {
                $set::from_square(sq)
            }
        }

        impl FromIterator<$square> for $set {
            fn from_iter<I: IntoIterator<Item = $square>>(iter: I) -> $set {
                iter.into_iter().fold($set::EMPTY, $set::with)
            }
        }
    };
}
