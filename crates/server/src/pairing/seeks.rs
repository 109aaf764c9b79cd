//! Open seeks and the pool: a new seek takes the waiting seek that fits it with the nearest
//! rating, or waits in the lobby until someone takes it, it is cancelled or it expires.

use super::terms::Terms;
use crate::room::Holder;
use crate::wire::{OpenSeek, PlayerRef};

/// A seek: a player waiting for an opponent on these terms.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Seek {
    pub id: String,
    pub holder: Holder,
    /// The seeker as the lobby shows it, with its rating in the seek's variant.
    pub player: PlayerRef,
    pub terms: Terms,
    /// The opponent's rating it accepts.
    pub range: Option<[i64; 2]>,
    pub created_ms: i64,
}

impl Seek {
    /// Whether `taker` (with its rating) may take this seek: another player, in its range.
    pub fn accepts(&self, taker: &Holder, rating: f64) -> bool {
        !same_player(&self.holder, taker) && in_range(self.range, rating)
    }

    /// As the lobby lists it.
    pub fn open(&self) -> OpenSeek {
        OpenSeek {
            color: self.terms.color_name(),
            created_ms: self.created_ms,
            id: self.id.clone(),
            options: self.terms.options.clone(),
            rated: self.terms.rated,
            rating_range: self.range,
            seeker: self.player.clone(),
            time_control: self.terms.time_control(),
            variant: self.terms.variant_ref(),
        }
    }
}

/// Whether two holders are one player: the same account, guest session or limits' key. Two
/// guest sessions are two players even when their limits' key is one address (a browser's first
/// seek makes its session and is counted on its address, so two new guests behind one address
/// still pair).
pub fn same_player(a: &Holder, b: &Holder) -> bool {
    let account = |h: &Holder| h.account.as_ref().map(|(id, _)| *id);
    if let (None, None, Some(x), Some(y)) = (account(a), account(b), &a.guest, &b.guest) {
        return x == y;
    }
    same_client(a, b)
}

/// Whether two holders count as one for the limits: the same account, guest session or limits'
/// key.
fn same_client(a: &Holder, b: &Holder) -> bool {
    let account = |h: &Holder| h.account.as_ref().map(|(id, _)| *id);
    (a.key.is_some() && a.key == b.key)
        || (account(a).is_some() && account(a) == account(b))
        || (a.guest.is_some() && a.guest == b.guest)
}

fn in_range(range: Option<[i64; 2]>, rating: f64) -> bool {
    range.is_none_or(|[low, high]| (low as f64..=high as f64).contains(&rating.round()))
}

/// The waiting seeks, oldest first.
#[derive(Default)]
pub struct Seeks(Vec<Seek>);

impl Seeks {
    /// The seeks `all`, oldest first.
    pub fn from_vec(all: Vec<Seek>) -> Seeks {
        Seeks(all)
    }

    /// Every waiting seek, oldest first.
    pub fn into_vec(self) -> Vec<Seek> {
        self.0
    }

    /// A seek's id.
    pub fn id_of(seek: &Seek) -> &str {
        &seek.id
    }

    /// Takes out the waiting seek that `seek` pairs with: the same terms, another player, each
    /// in the other's range, the nearest rating (the oldest among equals).
    pub fn take_match(&mut self, seek: &Seek) -> Option<Seek> {
        let fits = |s: &Seek| {
            s.terms.fits(&seek.terms)
                && s.accepts(&seek.holder, seek.player.rating)
                && seek.accepts(&s.holder, s.player.rating)
        };
        let best = self
            .0
            .iter()
            .enumerate()
            .filter(|(_, s)| fits(s))
            .min_by(|(_, a), (_, b)| {
                let gap = |s: &Seek| (s.player.rating - seek.player.rating).abs();
                gap(a).total_cmp(&gap(b))
            })
            .map(|(i, _)| i)?;
        Some(self.0.remove(best))
    }

    /// Adds a waiting seek.
    pub fn push(&mut self, seek: Seek) {
        self.0.push(seek);
    }

    /// How many seeks `holder` has waiting, counted as the limits count (a new guest's on its
    /// address).
    pub fn count_of(&self, holder: &Holder) -> usize {
        self.0
            .iter()
            .filter(|s| same_client(&s.holder, holder))
            .count()
    }

    /// Takes out the seek `id`.
    pub fn take(&mut self, id: &str) -> Option<Seek> {
        let i = self.0.iter().position(|s| s.id == id)?;
        Some(self.0.remove(i))
    }

    /// The seek `id`.
    pub fn get(&self, id: &str) -> Option<&Seek> {
        self.0.iter().find(|s| s.id == id)
    }

    /// Drops the seeks of the player listening under `key`.
    pub fn drop_of(&mut self, key: &str) {
        self.0
            .retain(|s| !s.holder.listener_keys().iter().any(|k| k == key));
    }

    /// Drops the seeks made before `cutoff_ms`.
    pub fn expire(&mut self, cutoff_ms: i64) {
        self.0.retain(|s| s.created_ms >= cutoff_ms);
    }

    /// Every waiting seek, newest first.
    pub fn listed(&self) -> Vec<OpenSeek> {
        self.0.iter().rev().map(Seek::open).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::board::Color;
    use bluffchess_rules::options::Options;

    fn seek(id: &str, account: i64, rating: f64, range: Option<[i64; 2]>) -> Seek {
        Seek {
            id: id.into(),
            holder: Holder {
                key: Some(format!("account {account}")),
                account: Some((account, format!("p{account}"))),
                guest: None,
            },
            player: PlayerRef {
                id: format!("p{account}"),
                name: format!("p{account}"),
                provisional: false,
                rating,
                title: None,
            },
            terms: Terms {
                variant: "bs".into(),
                options: Options::new(),
                clock: Some((60_000, 0)),
                rated: true,
                color: None,
            },
            range,
            created_ms: 0,
        }
    }

    #[test]
    fn the_nearest_rating_in_range_is_taken() {
        let mut seeks = Seeks::default();
        seeks.push(seek("far", 1, 1900.0, None));
        seeks.push(seek("near", 2, 1550.0, None));
        seeks.push(seek("out", 3, 1500.0, Some([1000, 1200])));
        let taken = seeks.take_match(&seek("new", 4, 1480.0, None)).unwrap();
        assert_eq!(taken.id, "near");
        assert_eq!(seeks.listed().len(), 2);
    }

    #[test]
    fn a_player_never_pairs_with_itself() {
        let mut seeks = Seeks::default();
        seeks.push(seek("mine", 1, 1500.0, None));
        assert!(seeks.take_match(&seek("again", 1, 1500.0, None)).is_none());
        assert_eq!(seeks.count_of(&seek("x", 1, 0.0, None).holder), 1);
    }

    #[test]
    fn two_new_guests_at_one_address_pair() {
        let guest = |id: &str, session: &str| {
            let mut s = seek(id, 0, 1500.0, None);
            s.holder = Holder {
                key: Some("address 127.0.0.1".into()),
                account: None,
                guest: Some(session.into()),
            };
            s.terms.rated = false;
            s
        };
        let mut seeks = Seeks::default();
        seeks.push(guest("first", "one"));
        assert!(seeks.take_match(&guest("again", "one")).is_none());
        assert_eq!(seeks.count_of(&guest("third", "three").holder), 1);
        assert_eq!(
            seeks.take_match(&guest("other", "two")).unwrap().id,
            "first"
        );
    }

    #[test]
    fn the_new_seeks_range_counts_too() {
        let mut seeks = Seeks::default();
        seeks.push(seek("high", 1, 2000.0, None));
        assert!(seeks
            .take_match(&seek("narrow", 2, 1500.0, Some([1400, 1600])))
            .is_none());
        let mut white = seek("white", 3, 2000.0, None);
        white.terms.color = Some(Color::White);
        seeks.push(white);
        let mut also_white = seek("w2", 4, 2000.0, None);
        also_white.terms.color = Some(Color::White);
        assert_eq!(seeks.take_match(&also_white).unwrap().id, "high");
    }
}
