//! The browser client end to end, in a real headless Chromium driven by chromedriver: every
//! variant played by two browsers through the lobby with the mouse (drags, clicks, right-button
//! drags, buttons, typing) while a third watches; a game against a server bot with a lost
//! connection; the reveal and replay of finished games; and no frame or page of one seat holding
//! the other seat's hidden choices; rated play between two accounts (`rated`). Screenshots go to
//! target/screenshots/.
mod common;

use common::{test_config, TestServer};
use fantoccini::actions::{
    InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT, MOUSE_BUTTON_RIGHT,
};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::process::{Child, Command};

const WAIT: Duration = Duration::from_secs(20);

/// Rated play: quick pairing, rating changes, players' pages, challenges.
#[path = "browser/rated.rs"]
mod rated;

/// A program named by an environment variable or found at one of `candidates`; the test fails
/// (never skips) without it.
fn program(var: &str, candidates: &[&str]) -> PathBuf {
    if let Ok(path) = std::env::var(var) {
        return PathBuf::from(path);
    }
    let path_var = std::env::var("PATH").unwrap_or_default();
    for name in candidates {
        let p = Path::new(name);
        if p.is_absolute() && p.exists() {
            return p.to_path_buf();
        }
        for dir in std::env::split_paths(&path_var) {
            if dir.join(name).exists() {
                return dir.join(name);
            }
        }
    }
    panic!(
        "no {candidates:?} found (set {var}): install Debian's chromium and chromium-driver \
         (apt-get install -y chromium chromium-driver)"
    );
}

fn out_dir(sub: &str) -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let dir = target.join(sub);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Driver {
    child: Child,
    port: u16,
    http: reqwest::Client,
}

impl Driver {
    async fn start() -> Driver {
        let bin = program(
            "CHROMEDRIVER",
            &[
                "chromedriver",
                "/usr/bin/chromedriver",
                "/usr/lib/chromium/chromedriver",
            ],
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(bin)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("chromedriver starts");
        let http = reqwest::Client::new();
        let start = Instant::now();
        loop {
            let ready = http
                .get(format!("http://127.0.0.1:{port}/status"))
                .send()
                .await;
            if let Ok(r) = ready {
                let v: Value = r.json().await.unwrap_or_default();
                if v["value"]["ready"] == json!(true) {
                    break;
                }
            }
            assert!(start.elapsed() < WAIT, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Driver { child, port, http }
    }

    async fn browser(&self, name: &str, width: u32, height: u32) -> Browser {
        let chromium = program(
            "CHROME",
            &["chromium", "/usr/bin/chromium", "chromium-browser"],
        );
        let profile = std::env::temp_dir().join(format!(
            "bluffchess-browser-{}-{name}-{}",
            std::process::id(),
            hub_nanos()
        ));
        std::fs::create_dir_all(&profile).unwrap();
        let caps = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--mute-audio", "--disable-extensions",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
            "goog:loggingPrefs": {"performance": "ALL", "browser": "ALL"},
        });
        let caps = caps.as_object().unwrap().clone();
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session");
        let sid = client.session_id().await.unwrap().unwrap();
        Browser {
            c: client,
            name: name.into(),
            sid,
            port: self.port,
            http: self.http.clone(),
            frames: Vec::new(),
            sent: Vec::new(),
            profile,
            closed: false,
        }
    }

    async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

fn hub_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// One browser session, with every WebSocket frame it has received.
struct Browser {
    c: Client,
    name: String,
    sid: String,
    port: u16,
    http: reqwest::Client,
    frames: Vec<String>,
    sent: Vec<String>,
    profile: PathBuf,
    closed: bool,
}

fn hit(sq: &str) -> String {
    format!(".board .hit[data-sq=\"{sq}\"]")
}

fn piece(sq: &str, code: &str) -> String {
    format!(".board .piece[data-sq=\"{sq}\"][data-piece=\"{code}\"]")
}

impl Browser {
    async fn goto(&self, url: &str) {
        self.c.goto(url).await.unwrap();
    }

    async fn find(&self, css: &str) -> Element {
        let found = (self.c.wait().at_most(WAIT))
            .for_element(Locator::Css(css))
            .await;
        match found {
            Ok(element) => element,
            Err(e) => panic!(
                "{}: no {css} within {WAIT:?}: {e}\n{}",
                self.name,
                self.what_went_wrong().await
            ),
        }
    }

    /// Where the page is and what its console said: for a failed test's message.
    async fn what_went_wrong(&self) -> String {
        let url = self.c.current_url().await.map(|u| u.to_string());
        let console: Vec<String> = (self.log("browser").await.iter())
            .map(|entry| format!("  {} {}", entry["level"], entry["message"]))
            .collect();
        let text = self
            .c
            .execute("return document.body.innerText.slice(0, 1500);", vec![])
            .await
            .map(|t| t.as_str().unwrap_or_default().to_string());
        format!(
            "page {url:?}, reading {text:?}; its console:\n{}",
            console.join("\n")
        )
    }

    async fn js(&self, script: &str) -> Value {
        self.c.execute(script, vec![]).await.unwrap()
    }

    /// Waits until a JavaScript expression is true.
    async fn until(&self, expr: &str, what: &str) {
        let start = Instant::now();
        loop {
            let probe = format!("try {{ return !!({expr}); }} catch (e) {{ return false; }}");
            if self.js(&probe).await == json!(true) {
                return;
            }
            if start.elapsed() > WAIT {
                let status = self
                    .js("return (document.querySelector('#status')||{}).textContent + ' | ' + (document.querySelector('#game-error')||{}).textContent")
                    .await;
                let log = self.log("browser").await;
                panic!(
                    "{}: waited {WAIT:?} for {what}; page says {status}; console: {log:?}",
                    self.name
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the element `css` finds; found again when a re-render replaced it between the
    /// finding and the click (a stale element), as a person would click the new one.
    async fn click(&self, css: &str) {
        let start = Instant::now();
        loop {
            match self.find(css).await.click().await {
                Ok(_) => return,
                Err(e) if e.to_string().contains("stale element") && start.elapsed() < WAIT => {
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
                Err(e) => panic!("{}: cannot click {css}: {e}", self.name),
            }
        }
    }

    async fn my_turn(&self) {
        self.until(
            "document.querySelector('.game[data-to-act=\"me\"]')",
            "its turn",
        )
        .await;
    }

    async fn click_sq(&self, sq: &str) {
        self.click(&hit(sq)).await;
    }

    async fn drag(&self, from: &str, to: &str, right: bool) {
        let a = self.find(&hit(from)).await;
        let b = self.find(&hit(to)).await;
        let button = if right {
            MOUSE_BUTTON_RIGHT
        } else {
            MOUSE_BUTTON_LEFT
        };
        let actions = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: a,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down { button })
            .then(PointerAction::MoveToElement {
                element: b.clone(),
                duration: Some(Duration::from_millis(60)),
                x: 8.0,
                y: 8.0,
            })
            .then(PointerAction::MoveToElement {
                element: b,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up { button });
        self.c.perform_actions(actions).await.unwrap();
        self.c.release_actions().await.unwrap();
    }

    async fn long_press_drag(&self, from: &str, to: &str) {
        let a = self.find(&hit(from)).await;
        let b = self.find(&hit(to)).await;
        let actions = TouchActions::new("finger".into())
            .then(PointerAction::MoveToElement {
                element: a,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Pause {
                duration: Duration::from_millis(700),
            })
            .then(PointerAction::MoveToElement {
                element: b,
                duration: Some(Duration::from_millis(60)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.c.perform_actions(actions).await.unwrap();
        self.c.release_actions().await.unwrap();
    }

    /// Picks `value` in the `<select>` at `css`.
    async fn select(&self, css: &str, value: &str) {
        self.find(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{}: cannot pick {value} in {css}: {e}", self.name));
    }

    /// Opens the lobby at `base` and picks `variant`, whose options then show.
    async fn lobby_variant(&self, base: &str, variant: &str) {
        self.goto(&format!("{base}/")).await;
        self.find(&format!("#variant option[value=\"{variant}\"]"))
            .await;
        self.select("#variant", variant).await;
    }

    /// In the lobby, creates the game as White against `opponent` (`friend`, `bot`); its id.
    async fn create_as_white(&self, opponent: &str) -> String {
        self.select("#color", "white").await;
        self.click(&format!("input[name=opponent][value={opponent}]"))
            .await;
        self.click("#create-btn").await;
        let game = self.find(".game[data-seat=\"white\"]").await;
        game.attr("data-game").await.unwrap().unwrap()
    }

    async fn type_action(&self, text: &str) {
        let input = self.find("#typed-input").await;
        input.send_keys(&format!("{text}\n")).await.unwrap();
    }

    /// The first of the seat's legal actions (as its page lists them) that starts with `prefix`,
    /// once the page lists one.
    async fn legal_starting(&self, prefix: &str) -> String {
        let expr = format!(
            "[...document.querySelectorAll('#legal-list option')].map((o) => o.value).find((a) => a.startsWith('{prefix}'))"
        );
        self.until(&expr, &format!("a legal {prefix:?}")).await;
        let found = self.js(&format!("return {expr};")).await;
        found.as_str().unwrap().to_string()
    }

    async fn button(&self, action: &str) {
        self.click(&format!("#buttons button[data-action=\"{action}\"]"))
            .await;
    }

    /// Drains one of the session's logs (`performance`, `browser`).
    async fn log(&self, kind: &str) -> Vec<Value> {
        let url = format!("http://127.0.0.1:{}/session/{}/se/log", self.port, self.sid);
        let r: Value = self
            .http
            .post(url)
            .json(&json!({"type": kind}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        r["value"].as_array().cloned().expect("a log")
    }

    /// Drains the performance log into `frames`: the WebSocket frames received.
    async fn drain(&mut self) {
        for entry in self.log("performance").await {
            let Some(text) = entry["message"].as_str() else {
                continue;
            };
            let m: Value = serde_json::from_str(text).unwrap_or_default();
            let payload = m["message"]["params"]["response"]["payloadData"].as_str();
            match (m["message"]["method"].as_str(), payload) {
                (Some("Network.webSocketFrameReceived"), Some(p)) => self.frames.push(p.into()),
                (Some("Network.webSocketFrameSent"), Some(p)) => self.sent.push(p.into()),
                _ => {}
            }
        }
    }

    /// This game's frames so far.
    fn game_frames(&self, id: &str) -> Vec<String> {
        let tag = format!("\"game\":\"{id}\"");
        self.frames
            .iter()
            .filter(|f| f.contains(&tag))
            .cloned()
            .collect()
    }

    async fn dom(&self) -> String {
        self.js("return document.documentElement.outerHTML;")
            .await
            .as_str()
            .unwrap()
            .to_string()
    }

    async fn shot(&self, name: &str) {
        self.until(
            "document.getAnimations().length === 0",
            "the animations' end",
        )
        .await;
        let png = self.c.screenshot().await.unwrap();
        std::fs::write(out_dir("screenshots").join(format!("{name}.png")), png).unwrap();
    }

    /// Asserts the console holds no Content-Security-Policy violation: the client runs under
    /// the server's strict policy.
    async fn no_policy_violations(&self) {
        let log = self.log("browser").await;
        let violations: Vec<&Value> = log
            .iter()
            .filter(|e| {
                e["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("Content Security Policy")
            })
            .collect();
        assert!(violations.is_empty(), "{}: {violations:?}", self.name);
    }

    /// The id of the game whose page matches `css`, once it does.
    async fn game_id(&self, css: &str) -> String {
        let page = self.find(css).await;
        page.attr("data-game").await.unwrap().unwrap()
    }

    /// Resigns: Resign, then (once it may be pressed: a double-click does not resign) Confirm.
    async fn resign(&self) {
        self.click("button[data-command=resign]").await;
        self.until(
            "(() => { const b = document.querySelector('button[data-command=resign]'); return b.textContent === 'Confirm resign' && !b.disabled; })()",
            "the confirmation",
        )
        .await;
        self.click("button[data-command=resign]").await;
    }

    async fn seq(&self) -> u64 {
        self.js("return +(document.querySelector('.game')||{dataset:{}}).dataset.seq || 0;")
            .await
            .as_u64()
            .unwrap_or(0)
    }

    async fn close(mut self) {
        let _ = self.c.clone().close().await;
        self.closed = true;
    }
}

impl Drop for Browser {
    /// Ends the session even when the test failed, so that no browser outlives it.
    fn drop(&mut self) {
        use std::io::{Read, Write};
        if !self.closed {
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
                let _ = write!(
                    s,
                    "DELETE /session/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                    self.sid
                );
                let _ = s.read_to_end(&mut Vec::new());
            }
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// What one observer (a seat, or a spectator) must not have seen: for every hidden action of
/// the others, its own text, until the reveal of that action or the end.
struct Snapshot {
    frames: usize,
    dom: String,
}

fn check_no_leaks(who: &str, observer: &str, record: &Value, frames: &[String], doms: &[Snapshot]) {
    let parsed: Vec<Value> = frames
        .iter()
        .map(|f| serde_json::from_str(f).unwrap())
        .collect();
    // The first frame that opens action `index` (or ends the game).
    let revealed_at = |index: u64| {
        parsed
            .iter()
            .position(|m| {
                if m["type"] == "end" {
                    return true;
                }
                let events = if m["type"] == "update" {
                    &m["events"]
                } else {
                    &m["view"]["events"]
                };
                events.as_array().is_some_and(|es| {
                    es.iter()
                        .any(|e| e["kind"] == "reveal" && e["reveals"].as_u64() == Some(index))
                })
            })
            .unwrap_or(parsed.len())
    };
    let actions = record["actions"].as_array().unwrap();
    let mut checked = 0;
    for action in actions {
        let text = action["text"].as_str().unwrap();
        let actor = action["actor"].as_str().unwrap();
        if action.get("commitment").is_none() || action["public"] == action["text"] {
            continue;
        }
        if actor == observer {
            // the control: a seat's own hidden choice is in its own frames and page
            assert!(
                frames.iter().any(|f| f.contains(text)),
                "{who}: its own {text:?} is missing from its frames"
            );
            for snap in doms {
                assert!(
                    snap.dom.contains(text),
                    "{who}: its own {text:?} is not on its page"
                );
            }
            continue;
        }
        let index = action["index"].as_u64().unwrap();
        // The same hidden text may have been taken before (a drop of the same piece onto the
        // same square) and opened: from then on the text is in the frames for that action.
        let twin_open = actions
            .iter()
            .filter(|a| a["text"] == action["text"] && a["index"] != action["index"])
            .map(|a| revealed_at(a["index"].as_u64().unwrap()))
            .min()
            .unwrap_or(parsed.len());
        let revealed_at = revealed_at(index).min(twin_open);
        for (n, frame) in frames[..revealed_at].iter().enumerate() {
            assert!(
                !frame.contains(text),
                "{who}: frame {n} holds {actor}'s hidden {text:?}: {frame}"
            );
        }
        for snap in doms {
            if snap.frames <= revealed_at {
                assert!(
                    !snap.dom.contains(text),
                    "{who}: the page holds {actor}'s hidden {text:?} before its reveal"
                );
            }
        }
        checked += 1;
    }
    eprintln!(
        "{who}: {checked} hidden actions checked against {} frames",
        frames.len()
    );
}

struct Table {
    w: Browser,
    b: Browser,
    x: Browser,
    base: String,
}

impl Table {
    /// White creates a game in the lobby: open to anyone, Black joining from the lobby and the
    /// watcher opening it from the lobby's live games; or (`by_link`) private, Black taking the
    /// seat with the invitation link and the watcher opening the game's page. Returns the game
    /// id.
    async fn start(&mut self, variant: &str, options: &[&str], by_link: bool) -> String {
        let w = &self.w;
        w.lobby_variant(&self.base, variant).await;
        for o in options {
            w.click(&format!("input[data-opt=\"{o}\"]")).await;
        }
        let id = w
            .create_as_white(if by_link { "friend" } else { "open" })
            .await;
        w.find("#invite").await;
        let b = &self.b;
        if by_link {
            // the friend opens the invitation link and takes the open seat
            let link = w.find("#invite").await.attr("href").await.unwrap().unwrap();
            b.goto(&format!("{}{link}", self.base)).await;
            b.click("#join").await;
        } else {
            b.goto(&format!("{}/", self.base)).await;
            b.click(&format!("#open li[data-game=\"{id}\"] button[data-join]"))
                .await;
        }
        b.find(".game[data-seat=\"black\"][data-status=\"live\"]")
            .await;
        let x = &self.x;
        if by_link {
            x.goto(&format!("{}/game/{id}", self.base)).await;
        } else {
            x.goto(&format!("{}/", self.base)).await;
            x.click(&format!("#live li[data-game=\"{id}\"] a")).await;
        }
        x.find(".game[data-seat=\"spectator\"]").await;
        w.find(".game[data-status=\"live\"]").await;
        id
    }

    /// Screenshots from both sides and at phone width, the pages' DOM, then White resigns and
    /// every page shows the reveal; the frames and pages are checked for leaks.
    async fn finish(&mut self, variant: &str, id: &str, ts: &TestServer, draw: bool) {
        self.w.shot(&format!("{variant}-white")).await;
        self.b.shot(&format!("{variant}-black")).await;
        // the watcher's screenshots in the dark theme
        self.x.click("#theme").await;
        self.x.find("html[data-theme=\"dark\"]").await;
        self.x.shot(&format!("{variant}-watcher-dark")).await;
        self.x.click("#theme").await;
        self.b.c.set_window_size(390, 844).await.unwrap();
        self.b
            .until("document.documentElement.clientWidth < 500", "phone width")
            .await;
        self.b.shot(&format!("{variant}-black-phone")).await;
        self.b.c.set_window_size(1100, 900).await.unwrap();
        let mut snaps = Vec::new();
        for br in [&mut self.w, &mut self.b, &mut self.x] {
            br.drain().await;
            let frames = br.game_frames(id).len();
            snaps.push(Snapshot {
                frames,
                dom: br.dom().await,
            });
        }
        if draw {
            self.w.click("button[data-command=offer_draw]").await;
            self.b.click("button[data-command=accept_draw]").await;
        } else {
            self.w.resign().await;
        }
        for br in [&self.w, &self.b, &self.x] {
            br.find(".game[data-status=\"over\"] #revealed").await;
        }
        let (status, record) = ts.get(&format!("/api/games/{id}/record"), None).await;
        assert_eq!(status, 200, "{record}");
        let mut snaps = snaps.into_iter();
        for (br, observer) in [
            (&mut self.w, "white"),
            (&mut self.b, "black"),
            (&mut self.x, "spectator"),
        ] {
            br.drain().await;
            let frames = br.game_frames(id);
            assert!(!frames.is_empty(), "{} received no frames", br.name);
            let snap = snaps.next().unwrap();
            check_no_leaks(
                &format!("{variant}/{}", br.name),
                observer,
                &record,
                &frames,
                &[snap],
            );
        }
    }
}

async fn play_chess(t: &mut Table) {
    t.w.my_turn().await;
    t.w.drag("e2", "e4", false).await;
    t.b.find(&piece("e4", "wP")).await;
    t.x.find(&piece("e4", "wP")).await;
    t.b.my_turn().await;
    t.b.click_sq("e7").await;
    t.b.find(".board .m-dest").await;
    t.b.click_sq("e5").await;
    t.w.find(&piece("e5", "bP")).await;
    t.w.my_turn().await;
    t.w.type_action("g1f3").await;
    t.w.until(
        "document.querySelector('.game').dataset.toAct === 'other'",
        "the typed move played",
    )
    .await;
    t.x.find(&piece("f3", "wN")).await;
    t.b.my_turn().await;
    // by keyboard: focus b8, move to c6 is b8 -> c6; select with Enter, arrows, Enter
    t.b.js("document.querySelector('.board .hit[data-sq=\"b8\"]').focus();")
        .await;
    let active = t.b.find(&hit("b8")).await;
    active.send_keys("\u{E007}").await.unwrap();
    t.b.find(".board .m-sel").await;
    t.b.js("document.querySelector('.board .hit[data-sq=\"c6\"]').focus();")
        .await;
    t.b.find(&hit("c6")).await.send_keys(" ").await.unwrap();
    t.w.find(&piece("c6", "bN")).await;
}

async fn play_alter_ego(t: &mut Table) {
    t.w.my_turn().await;
    t.w.drag("e2", "e4", false).await;
    t.b.my_turn().await;
    t.b.drag("d7", "d5", false).await;
    // a death move: Black decides, hidden from White
    t.b.find("#buttons button[data-action=\"stay\"]").await;
    t.b.click_sq("e8").await;
    t.w.my_turn().await;
    t.w.find(".board .piece[data-sq=\"d5\"] .badge").await;
    t.w.click_sq("e4").await;
    t.w.click_sq("d5").await;
    t.w.until(
        "[...document.querySelectorAll('#events li')].some(l => l.textContent.includes('transfer e8'))",
        "the reveal of the transfer",
    )
    .await;
    t.b.my_turn().await;
    t.b.click_sq("e8").await;
    t.b.click_sq("d7").await;
    t.w.find(&piece("d7", "bK")).await;
}

async fn play_ambiguous(t: &mut Table) {
    t.w.my_turn().await;
    t.w.click_sq("c3").await;
    t.b.my_turn().await;
    t.b.find("#buttons button[data-action=\"b1c3\"]").await;
    t.b.drag("c2", "c3", false).await;
    t.w.find(&piece("c3", "wP")).await;
    t.b.my_turn().await;
    // naming by a drag: only e7 reaches e5
    t.b.drag("e7", "e5", false).await;
    t.w.find(&piece("e5", "bP")).await;
    t.x.find(&piece("e5", "bP")).await;
    // Squares only one piece can reach are played at once; a3 is reached by the a-pawn and the
    // f8 bishop, and White picks the pawn. Up to White's pawn on g7.
    for (side, square, pick) in [
        ("w", "h4", None),
        ("b", "a5", None),
        ("w", "h5", None),
        ("b", "a4", None),
        ("w", "h6", None),
        ("b", "a3", Some("a4a3")),
        ("w", "g7", None),
        ("b", "b2", None),
    ] {
        let (namer, picker) = if side == "w" {
            (&t.w, &t.b)
        } else {
            (&t.b, &t.w)
        };
        namer.my_turn().await;
        namer.click_sq(square).await;
        if let Some(pick) = pick {
            picker.my_turn().await;
            picker.button(pick).await;
        }
        t.x.find(&format!(
            ".board .piece[data-sq=\"{square}\"][data-piece^=\"{side}\"]"
        ))
        .await;
    }
    // h8 is reached by g7's four promotions: Black picks the piece White gets.
    t.w.my_turn().await;
    t.w.click_sq("h8").await;
    t.b.my_turn().await;
    t.b.button("g7h8n").await;
    t.w.find(&piece("h8", "wN")).await;
    t.x.find(&piece("h8", "wN")).await;
}

async fn play_bluff_move(t: &mut Table) {
    t.w.my_turn().await;
    t.w.drag("e2", "e4", true).await;
    t.w.find(".board .piece[data-sq=\"e4\"] .badge.bluff").await;
    t.b.find(&piece("e4", "wP")).await;
    t.b.my_turn().await;
    t.b.click("#bluff-toggle").await;
    t.b.find("#bluff-toggle[aria-pressed=\"true\"]").await;
    t.b.click_sq("d7").await;
    t.b.click_sq("d5").await;
    t.b.find(".board .piece[data-sq=\"d5\"] .badge.bluff").await;
    t.w.my_turn().await;
    t.w.click_sq("e4").await;
    t.w.click_sq("d5").await;
    t.w.until(
        "[...document.querySelectorAll('#events li')].some(l => l.textContent.includes('the real pawn is on d7'))",
        "the captured bluff's reveal",
    )
    .await;
    t.b.my_turn().await;
    // a touch long press makes a bluff too
    t.b.long_press_drag("g8", "f6").await;
    t.b.find(".board .piece[data-sq=\"f6\"] .badge.bluff").await;
    t.w.find(&piece("f6", "bN")).await;
}

async fn play_bs(t: &mut Table) {
    t.w.my_turn().await;
    // the arrangement editor: swap king and queen
    t.w.click_sq("e1").await;
    t.w.click_sq("d1").await;
    t.w.click_sq("a2").await;
    t.w.click("#buttons button[data-action=\"spy-selected\"]")
        .await;
    t.w.until(
        "document.querySelector('#setup-text').textContent === 'setup RNBKQBNR/SPPPPPPP'",
        "the arrangement with a swap and the spy",
    )
    .await;
    t.w.click("#buttons button[data-action=\"setup RNBKQBNR/SPPPPPPP\"]")
        .await;
    t.b.my_turn().await;
    t.b.button("setup standard").await;
    t.w.my_turn().await;
    t.b.find(&piece("e1", "w?")).await;
    t.w.find(&piece("e1", "wQ")).await;
    t.w.drag("e2", "e4", false).await;
    t.b.my_turn().await;
    t.b.button("call").await;
    // a lawful move was called: Black removes one of its own pieces
    t.b.until(
        "document.querySelector('.board .m-target')",
        "the removal targets",
    )
    .await;
    t.b.click_sq("a8").await;
    t.w.until(
        "!document.querySelector('.board .piece[data-sq=\"a8\"]')",
        "a8 removed",
    )
    .await;
    t.b.my_turn().await;
    t.b.click_sq("d7").await;
    t.b.click_sq("d5").await;
    t.w.my_turn().await;
    t.w.button("accept").await;
    t.w.my_turn().await;
    t.w.find(&piece("e4", "wP")).await;
}

async fn play_reality_check(t: &mut Table) {
    t.w.my_turn().await;
    t.w.button("setup random").await;
    t.b.my_turn().await;
    // Black arranges: swap two pawns and the hand with the d9 rook
    t.b.click_sq("b7").await;
    t.b.click_sq("c7").await;
    t.b.click("#hand button[data-hand=\"editor\"]").await;
    t.b.click_sq("c8").await;
    let text =
        t.b.js("return document.querySelector('#setup-text').textContent;")
            .await;
    let text = text.as_str().unwrap().to_string();
    assert!(
        text.starts_with("setup ") && text.contains("b7=PN") && text.contains("c7=PP"),
        "{text}"
    );
    t.b.click(&format!("#buttons button[data-action=\"{text}\"]"))
        .await;
    t.w.my_turn().await;
    t.w.drag("b3", "b4", false).await;
    t.w.until(
        "document.querySelector('.board .m-target')",
        "the flip targets",
    )
    .await;
    t.w.click_sq("d1").await;
    t.b.my_turn().await;
    t.b.click_sq("c7").await;
    t.b.click_sq("c6").await;
    t.b.until(
        "document.querySelector('.board .m-target')",
        "the flip targets",
    )
    .await;
    t.b.click_sq("d9").await;
    t.w.my_turn().await;
    t.w.click_sq("b4").await;
    t.w.click_sq("b5").await;
    t.w.until(
        "document.querySelector('.board .m-target')",
        "the flip targets",
    )
    .await;
    t.w.click_sq("d2").await;
    t.b.my_turn().await;
    t.b.click_sq("c6").await;
    t.b.click_sq("b5").await;
    t.b.click(".chooser button[data-action=\"rc c6b5\"]").await;
    t.w.my_turn().await;
    // a drop from the hand onto the emptied b3
    t.w.click("#hand button:not([disabled])").await;
    t.w.click_sq("b3").await;
    t.w.until(
        "document.querySelector('.chooser') || document.querySelector('.board .piece[data-sq=\"b3\"]')",
        "the drop's chooser or the drop",
    )
    .await;
    if t.w.js("return !!document.querySelector('.chooser');").await == json!(true) {
        t.w.click(".chooser button[data-action^=\"drop \"]").await;
    }
    t.b.find(".board .piece[data-sq=\"b3\"]").await;
    t.b.my_turn().await;
}

/// Reality Check with Dice and Memory: a roll decides which piece the mover may flip (the flip
/// targets come from the seat's legal list, since the roll is random), then a Memory by clicking
/// two enemy pieces, and a removal after a mismatch.
async fn play_reality_check_dice_memory(t: &mut Table) {
    t.w.my_turn().await;
    t.w.button("setup random").await;
    t.b.my_turn().await;
    t.b.button("setup random").await;
    t.w.my_turn().await;
    t.w.drag("b3", "b4", false).await;
    // Chance rolls at once; the flip it allows (if any piece fits) is White's to click.
    t.w.until(
        "document.querySelector('.board .m-target') || !document.querySelector('.game[data-to-act=\"me\"]')",
        "the rolled flip or the end of the turn",
    )
    .await;
    if t.w
        .js("return !!document.querySelector('.board .m-target');")
        .await
        == json!(true)
    {
        let flip = t.w.legal_starting("flip ").await;
        t.w.click_sq(&flip["flip ".len()..]).await;
    }
    t.x.until(
        "[...document.querySelectorAll('#events li')].some((l) => /Chance rolled a [1-6]/.test(l.textContent))",
        "the roll in words",
    )
    .await;
    t.b.my_turn().await;
    let memory = t.b.legal_starting("memory ").await;
    let squares: Vec<&str> = memory.split(' ').skip(1).collect();
    t.b.click_sq(squares[0]).await;
    t.b.click_sq(squares[1]).await;
    t.x.until(
        "[...document.querySelectorAll('#events li')].some((l) => l.textContent.includes('for a Memory'))",
        "the Memory in the watcher's events",
    )
    .await;
    // A mismatch makes Black reveal and remove one of its true pieces.
    let removal = "[...document.querySelectorAll('#legal-list option')].some((o) => o.value.startsWith('remove '))";
    t.b.until(
        &format!("{removal} || !document.querySelector('.game[data-to-act=\"me\"]')"),
        "a removal or the end of the turn",
    )
    .await;
    if t.b.js(&format!("return {removal};")).await == json!(true) {
        let remove = t.b.legal_starting("remove ").await;
        let what = &remove["remove ".len()..];
        if what.len() == 2 {
            t.b.click_sq(what).await;
        } else {
            t.b.button(&remove).await;
        }
    }
    t.w.my_turn().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_client_plays_every_variant() {
    let started = Instant::now();
    let mut ts = TestServer::start("browser").await;
    let driver = Driver::start().await;
    let (w, b, x) = tokio::join!(
        driver.browser("white", 1100, 900),
        driver.browser("black", 1100, 900),
        driver.browser("watcher", 1100, 900),
    );
    let mut t = Table {
        w,
        b,
        x,
        base: ts.base.clone(),
    };
    first_load(&t.w, &t.base).await;
    a_wrong_token_keeps_the_seat(&t.w, &t.base).await;
    // The variants come from the server (GET /api/variants): each needs an adapter in
    // web/variants.js and a scenario here (docs/architecture.md, "Adding a variant").
    let listed = t
        .w
        .js("return fetch('/api/variants').then((r) => r.json()) \
             .then((j) => import('/static/variants.js') \
             .then((m) => ({ids: j.variants.map((v) => v.id), missing: m.missingAdapters(j.variants)})));")
        .await;
    assert_eq!(
        listed["missing"],
        json!([]),
        "variants the server lists without an adapter in web/variants.js"
    );
    let scenarios = [
        "chess",
        "alter-ego",
        "ambiguous",
        "bluff-move",
        "bs",
        "reality-check",
    ];
    let mut ids: Vec<&str> = listed["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    ids.sort_unstable();
    let mut played = scenarios.to_vec();
    played.sort_unstable();
    assert_eq!(
        ids, played,
        "every variant the server lists needs a scenario here"
    );
    for variant in scenarios {
        let lap = Instant::now();
        let options: &[&str] = if variant == "bs" { &["spy"] } else { &[] };
        let id = t.start(variant, options, variant == "ambiguous").await;
        match variant {
            "chess" => play_chess(&mut t).await,
            "alter-ego" => play_alter_ego(&mut t).await,
            "ambiguous" => play_ambiguous(&mut t).await,
            "bluff-move" => play_bluff_move(&mut t).await,
            "bs" => play_bs(&mut t).await,
            "reality-check" => play_reality_check(&mut t).await,
            _ => unreachable!(),
        }
        t.finish(variant, &id, &ts, variant == "chess").await;
        match variant {
            "chess" => rematch_and_abort(&t).await,
            // the reveal: Black now sees White's identities and hidden faces
            "bs" => {
                t.b.find(&piece("e1", "wQ")).await;
                t.b.find(&piece("a2", "wS")).await;
            }
            "reality-check" => {
                t.b.until(
                    "[...document.querySelectorAll('.board .piece[data-piece^=\"w\"]')].every(p => p.querySelector('.down'))",
                    "every white piece's face below",
                )
                .await;
            }
            _ => {}
        }
        eprintln!("{variant}: {:?}", lap.elapsed());
    }
    let lap = Instant::now();
    let id = t.start("reality-check", &["dice", "memory"], false).await;
    play_reality_check_dice_memory(&mut t).await;
    t.finish("reality-check-dice-memory", &id, &ts, false).await;
    eprintln!("reality-check with dice and memory: {:?}", lap.elapsed());

    // the replay of the last game, stepped through
    let x = &t.x;
    x.click("#replay-link").await;
    x.find(".replay .board .piece").await;
    let last = x
        .js("return +document.querySelector('.replay').dataset.step;")
        .await;
    x.click("#first").await;
    x.until(
        "document.querySelector('.replay').dataset.step === '0'",
        "the first step",
    )
    .await;
    x.click("#next").await;
    x.until(
        "document.querySelector('.replay').dataset.step === '1'",
        "the next step",
    )
    .await;
    assert!(last.as_u64().unwrap() > 5, "{last}");
    x.shot("reality-check-replay").await;
    // As White saw it: Black's hidden faces are not there; as it really was, they all are.
    x.click("#next").await;
    x.click("#next").await;
    let black_faces = "[...document.querySelectorAll('.replay .board .piece[data-piece^=\"b\"]')]";
    x.until(
        &format!(
            "{black_faces}.length > 0 && {black_faces}.every((p) => p.querySelector('.down'))"
        ),
        "every black face in the truth",
    )
    .await;
    x.select("#as", "white").await;
    x.until(
        &format!("document.querySelector('.replay').dataset.as === 'white' && {black_faces}.length > 0 && !{black_faces}.some((p) => p.querySelector('.down'))"),
        "no hidden black face as White saw it",
    )
    .await;
    x.shot("reality-check-replay-as-white").await;
    x.goto(&format!("{}/rules/reality-check", t.base)).await;
    x.find("#rules-text h1").await;
    x.find("#rules-text table").await;
    x.shot("rules").await;
    x.goto(&format!("{}/game/0000000000000000", t.base)).await;
    x.find("#no-game #back-to-lobby").await;
    x.lobby_variant(&t.base, "reality-check").await;
    x.find("input[data-opt=\"memory\"]").await;
    x.click("#theme").await;
    x.find("html[data-theme=\"dark\"]").await;
    x.shot("lobby-dark").await;
    x.click("#theme").await;

    // a game against a server bot, with a lost connection
    bot_game(&mut t, &mut ts).await;

    // an account: its game found from a second browser profile
    account_across_browsers(&t).await;

    for br in [&t.w, &t.b, &t.x] {
        br.no_policy_violations().await;
    }
    let Table { w, b, x, .. } = t;
    w.close().await;
    b.close().await;
    x.close().await;
    driver.stop().await;
    ts.stop().await;
    eprintln!("browser tests: {:?}", started.elapsed());
}

/// Reports the Navigation Timing of the lobby's first load in a fresh profile (cold cache): a
/// figure to read, not a timed assertion (speed is measured, never asserted in tests).
async fn first_load(w: &Browser, base: &str) {
    w.goto(&format!("{base}/")).await;
    w.until(
        "document.readyState === 'complete' && document.querySelector('#variant option')",
        "the lobby",
    )
    .await;
    let timing = w
        .js("const n = performance.getEntriesByType('navigation')[0]; \
             const r = performance.getEntriesByType('resource'); \
             return {load_ms: Math.round(n.loadEventEnd), \
             document_ms: Math.round(n.responseEnd), \
             bytes: n.encodedBodySize + r.reduce((a, x) => a + x.encodedBodySize, 0), \
             resources: r.map((x) => `${x.name.replace(/^.*\\/\\/[^/]+/, '')} \
             ${Math.round(x.startTime)}-${Math.round(x.responseEnd)}`)};")
        .await;
    eprintln!("first load of the lobby: {timing}");
}

async fn bot_game(t: &mut Table, ts: &mut TestServer) {
    let w = &t.w;
    w.lobby_variant(&t.base, "chess").await;
    w.create_as_white("bot").await;
    w.find(".game[data-seat=\"white\"][data-status=\"live\"]")
        .await;
    w.my_turn().await;
    let seq = w.seq().await;
    w.drag("d2", "d4", false).await;
    w.find(&piece("d4", "wP")).await;
    w.until(
        &format!("+document.querySelector('.game').dataset.seq > {seq}"),
        "a message",
    )
    .await;
    w.my_turn().await;
    // the server goes away and comes back on the same address and database
    let addr = ts.addr;
    ts.stop().await;
    w.find("#conn.lost").await;
    let listener = TcpListener::bind(addr).await.unwrap();
    let server = bluffchess_server::Server::start(listener, &ts.database, test_config())
        .await
        .unwrap();
    ts.server = Some(server);
    w.until(
        "document.querySelector('#conn').dataset.state === 'open'",
        "the reconnection",
    )
    .await;
    // the socket resumed after the last message it had seen
    let seen = w.seq().await;
    t.w.drain().await;
    let resumed = t.w.sent.iter().any(|f| {
        let v: Value = serde_json::from_str(f).unwrap_or_default();
        v["since"].as_u64().is_some_and(|n| n > 0 && n <= seen) && v["token"].is_string()
    });
    assert!(resumed, "no resume with since in {:?}", t.w.sent);
    let w = &t.w;
    w.my_turn().await;
    w.type_action("e2e3").await;
    w.find(&piece("e3", "wP")).await;
    w.my_turn().await;
    w.shot("chess-bot-reconnected").await;
    w.click("#mute").await;
    w.find("#mute[aria-pressed=\"true\"]").await;
    w.click("#mute").await;
    w.find("#mute[aria-pressed=\"false\"]").await;
    w.resign().await;
    w.find(".game[data-status=\"over\"] #revealed").await;
    let href = w
        .js("return document.querySelector('#download').href;")
        .await;
    assert!(href.as_str().unwrap().starts_with("blob:"), "{href}");
}

/// After the drawn chess game both ask for a rematch: both land on the new game with colours
/// swapped, and the new White aborts it.
async fn rematch_and_abort(t: &Table) {
    t.x.find("#revealed").await;
    t.w.click("#rematch").await;
    t.w.find("#rematch-state").await;
    t.b.until(
        "document.querySelector('#rematch-state').textContent.includes('asks')",
        "the opponent's rematch ask",
    )
    .await;
    t.b.click("#rematch").await;
    t.b.find(".game[data-seat=\"white\"][data-status=\"live\"]")
        .await;
    t.w.find(".game[data-seat=\"black\"][data-status=\"live\"]")
        .await;
    let a = t.b.find(".game").await.attr("data-game").await.unwrap();
    let b = t.w.find(".game").await.attr("data-game").await.unwrap();
    assert_eq!(a, b, "both are in the rematch");
    t.b.click("button[data-command=abort]").await;
    t.w.find(".game[data-status=\"aborted\"]").await;
}

/// Plays one of the seat's legal actions the way a player would: a flip by clicking the piece,
/// a move or Reality Check by clicking its two squares (and the chooser's button when the squares
/// allow both), a drop by clicking the hand piece and the square; anything else is typed.
async fn play_by_clicks(b: &Browser, text: &str) {
    let seq = b.seq().await;
    let words: Vec<&str> = text.split(' ').collect();
    // Two squares may carry more than one action: then the chooser names each.
    let choose = || async {
        b.until(
            &format!(
                "document.querySelector('.chooser') || +document.querySelector('.game').dataset.seq > {seq}"
            ),
            "the chooser or the action's answer",
        )
        .await;
        if b.js("return !!document.querySelector('.chooser');").await == json!(true) {
            b.click(&format!(".chooser button[data-action=\"{text}\"]"))
                .await;
        }
    };
    match words.as_slice() {
        ["flip", sq] => b.click_sq(sq).await,
        [mv] | ["rc", mv] if mv.len() == 4 => {
            b.click_sq(&mv[..2]).await;
            b.click_sq(&mv[2..]).await;
            choose().await;
        }
        ["drop", piece] => {
            let (faces, sq) = piece.split_once('@').unwrap();
            let mut letters: Vec<char> = faces.chars().collect();
            letters.sort_unstable();
            // the hand lists each piece once, by its faces
            let hand = b
                .js(&format!(
                    "return [...document.querySelectorAll('#hand button[data-hand]')].map((x) => x.dataset.hand).find((h) => [...h].sort().join('') === '{}');",
                    letters.iter().collect::<String>()
                ))
                .await;
            b.click(&format!(
                "#hand button[data-hand=\"{}\"]",
                hand.as_str().unwrap()
            ))
            .await;
            b.click_sq(sq).await;
            choose().await;
        }
        _ => b.type_action(text).await,
    }
    b.until(
        &format!("+document.querySelector('.game').dataset.seq > {seq}"),
        &format!("the answer to {text}"),
    )
    .await;
}

/// Reality Check on the Advanced board (`board=advanced`) against the default server bot: the
/// lobby's board option, the setup editor on the corner region (a piece moved to the empty
/// corner square, one flipped), the 7x7 frame with its holes absent, then White's turns played
/// by clicks until the game ends or White has taken 16 actions; screenshots of the setup, the
/// game and its replay, and White's frames and page checked for Black's hidden setup and drops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_client_plays_the_advanced_board_against_the_default_bot() {
    let mut ts = TestServer::start("browser-advanced").await;
    let driver = Driver::start().await;
    let mut w = driver.browser("white", 1100, 900).await;
    w.lobby_variant(&ts.base, "reality-check").await;
    // the lobby lists the board option with its two values, basic first
    let values = w
        .js("return [...document.querySelectorAll('select[data-opt=\"board\"] option')].map((o) => o.value);")
        .await;
    assert_eq!(values, json!(["basic", "advanced"]));
    w.select("select[data-opt=\"board\"]", "advanced").await;
    w.select("#clock", "").await;
    let id = w.create_as_white("bot").await;
    w.my_turn().await;
    // the Advanced board: 39 squares in a 7x7 frame, the ten holes drawn as no square
    w.find(".board.shape-rc-advanced").await;
    let holes = w
        .js("return [...document.querySelectorAll('.board .hole')].map((h) => h.dataset.hole).sort();")
        .await;
    assert_eq!(
        holes,
        json!(["b4", "c3", "c4", "c5", "d2", "d6", "e3", "e4", "e5", "f4"])
    );
    let squares = w
        .js("return [...document.querySelectorAll('.board .hit')].map((h) => h.dataset.sq);")
        .await;
    let squares: Vec<&str> = squares
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(squares.len(), 39, "{squares:?}");
    for hole in ["d6", "c5", "e5", "b4", "c4", "e4", "f4", "c3", "e3", "d2"] {
        assert!(!squares.contains(&hole), "{hole} is drawn");
    }
    assert!(squares.contains(&"a1") && squares.contains(&"g7") && !squares.contains(&"d8"));
    // the setup editor: g3's piece to the empty g4, then e1's NB turned over
    w.click_sq("g3").await;
    w.click_sq("g4").await;
    w.click_sq("e1").await;
    w.button("flip-selected").await;
    let text = w
        .js("return document.querySelector('#setup-text').textContent;")
        .await;
    let text = text.as_str().unwrap().to_string();
    assert!(
        text.starts_with("setup ")
            && text.contains("g4=PR")
            && text.contains("e1=BN")
            && !text.contains("g3="),
        "{text}"
    );
    w.shot("reality-check-advanced-setup").await;
    let seq = w.seq().await;
    w.click(&format!("#buttons button[data-action=\"{text}\"]"))
        .await;
    // The setup's answer first: until it comes, the page still shows White's setup as due.
    w.until(
        &format!("+document.querySelector('.game').dataset.seq > {seq}"),
        "the answer to White's setup",
    )
    .await;
    // Black (the bot) sets up; White moves
    let mut played = 0;
    while played < 16 {
        w.until(
            "document.querySelector('.game[data-to-act=\"me\"]') || document.querySelector('.game[data-status=\"over\"]')",
            "White's turn or the end",
        )
        .await;
        if w.js("return !!document.querySelector('.game[data-status=\"over\"]');")
            .await
            == json!(true)
        {
            break;
        }
        let legal = w
            .js("return [...document.querySelectorAll('#legal-list option')].map((o) => o.value);")
            .await;
        let legal: Vec<String> = legal
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert!(!legal.is_empty(), "White to act with nothing legal");
        // captures first, to reach Reality Checks and drops; otherwise spread over the list
        let capture = legal
            .iter()
            .find(|a| a.starts_with("rc ") || a.starts_with("drop "));
        let action = capture
            .cloned()
            .unwrap_or_else(|| legal[(played * 7 + 3) % legal.len()].clone());
        play_by_clicks(&w, &action).await;
        played += 1;
        if played == 6 {
            w.shot("reality-check-advanced-bot-game").await;
        }
    }
    eprintln!("advanced board: White played {played} actions by clicks");
    assert!(played >= 6, "the game ended after {played} actions");
    // The bot answers; the page is still while White is to act.
    w.until(
        "document.querySelector('.game[data-to-act=\"me\"]') || document.querySelector('.game[data-status=\"over\"]')",
        "White's turn or the end",
    )
    .await;
    w.shot("reality-check-advanced-bot-later").await;
    w.drain().await;
    let snap = Snapshot {
        frames: w.game_frames(&id).len(),
        dom: w.dom().await,
    };
    if w.js("return !!document.querySelector('.game[data-status=\"live\"]');")
        .await
        == json!(true)
    {
        w.resign().await;
    }
    w.find(".game[data-status=\"over\"] #revealed").await;
    // after the end, Black's hidden faces are shown to White
    w.until(
        "[...document.querySelectorAll('.board .piece[data-piece^=\"b\"]')].every(p => p.querySelector('.down'))",
        "every black piece's face below",
    )
    .await;
    w.shot("reality-check-advanced-bot-revealed").await;
    let (status, record) = ts.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["options"]["board"], "advanced");
    assert!(bluffchess_rules::verify(&serde_json::from_value(record.clone()).unwrap()).is_ok());
    w.drain().await;
    let frames = w.game_frames(&id);
    check_no_leaks(
        "reality-check-advanced/white",
        "white",
        &record,
        &frames,
        &[snap],
    );
    // the replay draws the same board
    w.click("#replay-link").await;
    w.find(".replay .board.shape-rc-advanced .piece").await;
    let holes = w
        .js("return document.querySelectorAll('.replay .board .hole').length;")
        .await;
    assert_eq!(holes, json!(10));
    w.shot("reality-check-advanced-replay").await;
    w.close().await;
    driver.stop().await;
    ts.stop().await;
}

/// A link with a token the server refuses says so and keeps the seat this browser has: the
/// stored token is replaced only once the server has taken the new one. A private game's
/// invitation link carries the invitation, never the creator's token.
async fn a_wrong_token_keeps_the_seat(w: &Browser, base: &str) {
    w.goto(&format!("{base}/")).await;
    w.find("#variant option[value=\"chess\"]").await;
    w.click("input[name=opponent][value=friend]").await;
    w.click("#create-btn").await;
    let id = w
        .find(".game[data-status=\"open\"]")
        .await
        .attr("data-game")
        .await
        .unwrap()
        .unwrap();
    let invite = w.find("#invite").await.attr("href").await.unwrap().unwrap();
    assert!(
        invite.starts_with(&format!("/game/{id}#invite=")),
        "{invite}"
    );
    let stored = format!("return localStorage.getItem('bc-tok-{id}');");
    let token = w.js(&stored).await;
    assert!(token.as_str().is_some_and(|t| t.len() == 32), "{token}");
    w.goto(&format!("{base}/")).await;
    w.goto(&format!("{base}/game/{id}#{}", "0".repeat(32)))
        .await;
    w.find("#bad-link").await;
    w.shot("bad-link").await;
    assert_eq!(w.js(&stored).await, token, "the stored token survives");
    w.click("#bad-link a").await;
    w.find(".game[data-seat^=\"w\"], .game[data-seat^=\"b\"]")
        .await;
    w.click("button[data-command=abort]").await;
    w.find(".game[data-status=\"aborted\"]").await;
}

/// Signs up in one browser, plays a game there to its end, then signs in from a second browser
/// profile and finds the game under the account.
async fn account_across_browsers(t: &Table) {
    let (w, x) = (&t.w, &t.x);
    w.goto(&format!("{}/signup", t.base)).await;
    w.find("#signup input[name=username]")
        .await
        .send_keys("walter_w")
        .await
        .unwrap();
    w.find("#signup input[name=password]")
        .await
        .send_keys("walter's long password")
        .await
        .unwrap();
    w.click("#signup-btn").await;
    w.find("#me").await;
    w.until(
        "document.querySelector('#me').textContent === 'walter_w'",
        "the name in the header",
    )
    .await;
    // A game against a bot, to its end.
    w.goto(&format!("{}/", t.base)).await;
    w.find("#variant option[value=\"chess\"]").await;
    w.click("input[name=opponent][value=bot]").await;
    w.click("#create-btn").await;
    let id = w
        .find(".game[data-status=\"live\"]")
        .await
        .attr("data-game")
        .await
        .unwrap()
        .unwrap();
    w.until(
        "[...document.querySelectorAll('.player .name')].some((n) => n.textContent.startsWith('walter_w'))",
        "the player's name by the board",
    )
    .await;
    w.resign().await;
    w.find(".game[data-status=\"over\"]").await;
    // The second profile signs in and finds the game.
    x.goto(&format!("{}/login", t.base)).await;
    x.find("#login input[name=username]")
        .await
        .send_keys("Walter_W")
        .await
        .unwrap();
    x.find("#login input[name=password]")
        .await
        .send_keys("walter's long password")
        .await
        .unwrap();
    x.click("#login-btn").await;
    x.find(&format!("#my-games li[data-game=\"{id}\"]")).await;
    x.shot("account").await;
    // The game's page, opened there, is the account's seat.
    x.goto(&format!("{}/game/{id}", t.base)).await;
    x.find(".game[data-seat=\"white\"], .game[data-seat=\"black\"]")
        .await;
    x.click("#logout").await;
    x.find("#sign-in").await;
    w.click("#logout").await;
    w.find("#sign-in").await;
}

/// Clicks an element twice in quick succession, as a double-click does.
async fn double_click(b: &Browser, css: &str) {
    let el = b.find(css).await;
    let actions = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.c.perform_actions(actions).await.unwrap();
    b.c.release_actions().await.unwrap();
}

/// The text (`textContent`) of the first element at `css`.
async fn text_of(b: &Browser, css: &str) -> String {
    b.find(css).await;
    let css = serde_json::to_string(css).unwrap();
    b.js(&format!(
        "return document.querySelector({css}).textContent;"
    ))
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// Issue 28: the game page as a lichess player expects it. Clocks after a reload, buttons that
/// cannot be pressed twice, the numbered move list in each variant's notation (a revealed
/// decision filled in, earlier positions on a click), BS's pending move at its destination,
/// premoves, the result banner, a loss on time in the events, draw offers declined, victory
/// claimed only from a player who has gone, bots by level, the bogus game's page, the
/// invitation's copy button, the open seat's colour; and every variant's Learn page walked to
/// its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_page_as_a_player_expects_it() {
    let ts = TestServer::start("browser-page").await;
    let driver = Driver::start().await;
    let (w, b) = tokio::join!(
        driver.browser("page-white", 1100, 900),
        driver.browser("page-black", 1100, 900),
    );
    let base = ts.base.clone();

    // A double-click on "Create game" makes one game; the lobby remembers the choice.
    w.lobby_variant(&base, "chess").await;
    w.click("input[name=opponent][value=open]").await;
    w.select("#color", "white").await;
    double_click(&w, "#create-btn").await;
    let id = w.game_id(".game[data-status=\"open\"]").await;
    let (_, lobby) = ts.get("/api/games", None).await;
    assert_eq!(
        lobby["open"].as_array().unwrap().len(),
        1,
        "one game for a double-click: {lobby}"
    );
    // the spectator is told which seat is open; the creator gets a copy button
    b.goto(&format!("{base}/game/{id}")).await;
    assert!(
        text_of(&b, "#join").await.contains("play black"),
        "the open seat's colour"
    );
    w.click("#copy-invite").await;
    w.until(
        "document.querySelector('.game').dataset.copied.endsWith(document.querySelector('#invite').getAttribute('href'))",
        "the invitation copied",
    )
    .await;
    w.shot("page-invite-copy").await;
    w.click("button[data-command=abort]").await;
    w.find(".game[data-status=\"aborted\"]").await;
    w.goto(&format!("{base}/")).await;
    w.find("#variant option[value=\"chess\"]").await;
    w.until(
        "document.querySelector('#variant').value === 'chess' && document.querySelector('input[name=opponent][value=open]').checked",
        "the last variant and opponent remembered",
    )
    .await;

    // A bot game: named by its level; the clock after a reload matches the server's.
    w.select("#variant", "chess").await;
    w.click("input[name=opponent][value=bot]").await;
    w.find("#bot option[value=\"random\"]").await;
    w.select("#bot", "random").await;
    w.select("#color", "white").await;
    w.click("#create-btn").await;
    let bot_game = w
        .game_id(".game[data-seat=\"white\"][data-status=\"live\"]")
        .await;
    w.until(
        "document.querySelector('#top .name').textContent.startsWith('Level 1 bot')",
        "the bot named by its level",
    )
    .await;
    w.my_turn().await;
    w.drag("g1", "f3", false).await;
    w.find(&piece("f3", "wN")).await;
    w.until(
        "document.querySelector('.game').dataset.toAct === 'me' && document.querySelectorAll('#moves button.mv').length === 2",
        "the bot's answer",
    )
    .await;
    assert!(
        text_of(&w, "#moves").await.starts_with("1.Nf3"),
        "SAN in the move list: {}",
        text_of(&w, "#moves").await
    );
    // White's clock runs; the page is reloaded 2 s later
    tokio::time::sleep(Duration::from_secs(2)).await;
    w.c.refresh().await.unwrap();
    w.find(".game[data-seat=\"white\"][data-status=\"live\"]")
        .await;
    w.until(
        "document.querySelector('#bottom .clock').dataset.ms > 0",
        "the clock",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // the server's clock and the page's, read at the same moment in the page
    let gap = w
        .c
        .execute_async(
            &format!(
                "const done = arguments[arguments.length - 1]; \
                 fetch('/api/games/{bot_game}/view', {{headers: {{Authorization: 'Bearer ' + localStorage.getItem('bc-tok-{bot_game}')}}}}) \
                 .then((r) => r.json()).then((v) => {{ const page = +document.querySelector('#bottom .clock').dataset.ms; \
                 done({{page, server: v.clock.white_ms, running: v.clock.running, gap: Math.abs(page - v.clock.white_ms)}}); }});"
            ),
            vec![],
        )
        .await
        .unwrap();
    eprintln!("the clock after a reload: {gap}");
    assert_eq!(gap["running"], "white", "{gap}");
    assert!(
        gap["gap"].as_f64().unwrap() < 500.0,
        "the page's clock is within 0.5 s of the server's: {gap}"
    );
    // a draw offer to a bot is declined, shown like a player's answer
    w.click("button[data-command=offer_draw]").await;
    w.until(
        "[...document.querySelectorAll('#events li')].some((l) => l.textContent === 'Black declined the draw.')",
        "the bot's decline",
    )
    .await;
    assert_eq!(
        w.js("return !!document.querySelector('button[data-command=claim_victory]');")
            .await,
        json!(false),
        "no victory to claim against a bot"
    );
    // a double-click on Resign does not resign: the confirmation waits
    double_click(&w, "button[data-command=resign]").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    w.find(".game[data-status=\"live\"] button[data-command=resign]")
        .await;
    w.until(
        "!document.querySelector('button[data-command=resign]').disabled",
        "the confirmation enabled",
    )
    .await;
    w.click("button[data-command=resign]").await;
    w.find(".game[data-status=\"over\"]").await;
    assert!(
        text_of(&w, "#result").await.starts_with("0-1"),
        "the result banner: {}",
        text_of(&w, "#result").await
    );
    w.shot("page-result-banner").await;

    // A loss on time: the low-time warning, then the banner and the events say so.
    let game = ts
        .create(
            json!({"variant": "chess", "color": "white", "opponent": "bot:random",
            "clock": {"initial_s": 12, "increment_s": 0}}),
        )
        .await;
    let (gid, token) = (
        game["id"].as_str().unwrap(),
        game["token"].as_str().unwrap(),
    );
    w.goto(&format!("{base}/game/{gid}#{token}")).await;
    w.my_turn().await;
    w.drag("e2", "e4", false).await;
    w.find(".game[data-low-time=\"1\"]").await;
    w.shot("page-low-time").await;
    w.until(
        "document.querySelector('.game').dataset.status === 'over'",
        "the flag's fall",
    )
    .await;
    assert!(
        text_of(&w, "#result")
            .await
            .starts_with("0-1Black wins by time forfeit"),
        "{}",
        text_of(&w, "#result").await
    );
    w.until(
        "[...document.querySelectorAll('#events li')].some((l) => l.textContent === 'White ran out of time.')",
        "the loss on time in the events",
    )
    .await;
    assert!(
        !w.dom().await.contains("resigned"),
        "a loss on time is not a resignation"
    );

    // Two players: Alter Ego's move list in SAN with the revealed decision filled in, earlier
    // positions on a click, a premove played on the opponent's move, a draw declined, a
    // victory claimed from a player who has gone.
    w.lobby_variant(&base, "alter-ego").await;
    w.select("#color", "white").await;
    w.click("input[name=opponent][value=friend]").await;
    w.click("#create-btn").await;
    let link = w.find("#invite").await.attr("href").await.unwrap().unwrap();
    b.goto(&format!("{base}{link}")).await;
    b.click("#join").await;
    b.find(".game[data-seat=\"black\"][data-status=\"live\"]")
        .await;
    w.my_turn().await;
    w.drag("e2", "e4", false).await;
    b.my_turn().await;
    // White premoves d2-d4 while Black thinks
    w.click_sq("d2").await;
    w.click_sq("d4").await;
    w.find(".game[data-premove=\"d2d4\"]").await;
    w.shot("page-premove").await;
    b.drag("d7", "d5", false).await;
    b.find("#ego-hint").await;
    assert!(
        text_of(&b, "#ego-hint").await.contains("dashes"),
        "the transfer is explained"
    );
    b.click_sq("e8").await;
    // the premove was kept through Black's decision and played on Black's move
    b.find(&piece("d4", "wP")).await;
    w.until(
        "document.querySelector('.game').dataset.premove === ''",
        "the premove played",
    )
    .await;
    // after its transfer Black must move the ego's piece: the king
    b.my_turn().await;
    b.drag("e8", "d7", false).await;
    w.my_turn().await;
    w.drag("e4", "d5", false).await;
    w.until(
        "document.querySelector('#moves').textContent.includes('exd5')",
        "the revealed decision in the move list",
    )
    .await;
    let moves = text_of(&w, "#moves").await;
    assert!(
        moves.starts_with("1.e4d5† transfer e82.d4Kd73.exd5"),
        "full moves in SAN, the decision filled in: {moves:?}"
    );
    w.shot("page-move-list").await;
    // a click on the first move shows that position: e4 played, d5 not yet
    w.click("#moves button[data-after=\"1\"]").await;
    w.find(".game[data-viewing=\"1\"]").await;
    w.find(&piece("e4", "wP")).await;
    w.find(&piece("d7", "bP")).await;
    w.shot("page-earlier-position").await;
    w.js("document.activeElement.blur();").await;
    w.find("body").await.send_keys("\u{E014}").await.unwrap();
    w.until(
        "document.querySelector('.game').dataset.viewing !== '1'",
        "a step with the arrow",
    )
    .await;
    w.find("body").await.send_keys("\u{E00C}").await.unwrap();
    w.find(".game[data-viewing=\"\"]").await;
    w.find(&piece("d5", "wP")).await;
    // a draw offered and declined
    b.my_turn().await;
    b.click("button[data-command=offer_draw]").await;
    w.find("#draw-offer").await;
    w.click("button[data-command=decline_draw]").await;
    b.until(
        "[...document.querySelectorAll('#events li')].some((l) => l.textContent === 'White declined the draw.')",
        "the decline",
    )
    .await;
    // Black leaves: only then may White claim the win
    assert_eq!(
        w.js("return !!document.querySelector('button[data-command=claim_victory]');")
            .await,
        json!(false),
        "no claim while the opponent is there"
    );
    b.goto(&format!("{base}/")).await;
    w.find("button[data-command=claim_victory]").await;
    w.shot("page-claim-victory").await;
    w.click("button[data-command=claim_victory]").await;
    w.find(".game[data-status=\"over\"]").await;
    assert!(text_of(&w, "#result").await.starts_with("1-0"));

    // BS: the move awaiting its answer is drawn where it went.
    w.lobby_variant(&base, "bs").await;
    w.select("#color", "white").await;
    w.click("input[name=opponent][value=friend]").await;
    w.click("#create-btn").await;
    let link = w.find("#invite").await.attr("href").await.unwrap().unwrap();
    b.goto(&format!("{base}{link}")).await;
    b.click("#join").await;
    w.my_turn().await;
    w.button("setup standard").await;
    b.my_turn().await;
    b.button("setup standard").await;
    w.my_turn().await;
    w.drag("e2", "e4", false).await;
    b.my_turn().await;
    b.find(".board .piece[data-sq=\"e4\"][data-piece=\"w?\"] .badge.pending")
        .await;
    assert_eq!(
        b.js("return !!document.querySelector('.board .piece[data-sq=\"e2\"]');")
            .await,
        json!(false),
        "the pending move is no longer drawn on its square"
    );
    w.find(".board .piece[data-sq=\"e4\"][data-piece=\"wP\"]")
        .await;
    b.shot("page-bs-pending").await;

    // An unknown game's page.
    b.goto(&format!("{base}/game/no-such-game")).await;
    b.find("#no-game #back-to-lobby").await;
    b.shot("page-no-such-game").await;
    b.click("#back-to-lobby").await;
    b.find("#variant").await;

    // Every variant's Learn page, walked through to its end.
    for variant in [
        "chess",
        "alter-ego",
        "ambiguous",
        "bluff-move",
        "bs",
        "reality-check",
    ] {
        learn_walk(&b, &base, variant).await;
    }
    for br in [&w, &b] {
        br.no_policy_violations().await;
    }
    w.close().await;
    b.close().await;
    driver.stop().await;
    let mut ts = ts;
    ts.stop().await;
}

/// Opens a variant's Learn page, starts its lesson and plays the learner's steps the way a
/// newcomer would (the board's clicks, the buttons), to the lesson's end.
async fn learn_walk(b: &Browser, base: &str, variant: &str) {
    b.goto(&format!("{base}/learn/{variant}")).await;
    b.find(".learn h1").await;
    b.click(".lesson .lesson-start").await;
    let mut shot = false;
    loop {
        b.until(
            "document.querySelector('.lesson').dataset.waiting || document.querySelector('.lesson').dataset.done || document.querySelector('.lesson').dataset.failed",
            "the lesson's next step",
        )
        .await;
        let state = b
            .js("const l = document.querySelector('.lesson'); return {waiting: l.dataset.waiting || '', done: l.dataset.done || '', failed: l.querySelector('.lesson-error').textContent};")
            .await;
        assert_eq!(state["failed"], "", "{variant}: {state}");
        if state["done"] == "1" {
            break;
        }
        let action = state["waiting"].as_str().unwrap().to_string();
        if !shot {
            b.shot(&format!("learn-{variant}")).await;
            shot = true;
        }
        let words: Vec<&str> = action.split(' ').collect();
        let squares = |t: &str| {
            t.len() % 2 == 0
                && t.as_bytes()
                    .chunks(2)
                    .all(|c| c[0].is_ascii_lowercase() && c[1].is_ascii_digit())
        };
        match words.as_slice() {
            [sq] if sq.len() == 2 && squares(sq) => b.click_sq(sq).await,
            [mv] if mv.len() == 4 && squares(mv) && variant == "ambiguous" => {
                b.click_sq(&mv[..2]).await
            }
            [mv] | ["rc", mv] if mv.len() == 4 && squares(mv) => {
                b.click_sq(&mv[..2]).await;
                b.click_sq(&mv[2..]).await;
            }
            ["bluff", mv] => {
                b.click(".lesson .lesson-bluff").await;
                b.click_sq(&mv[..2]).await;
                b.click_sq(&mv[2..]).await;
            }
            ["flip" | "transfer" | "remove", sq] => b.click_sq(sq).await,
            _ => {
                b.click(&format!(".lesson button[data-action=\"{action}\"]"))
                    .await
            }
        }
        b.until(
            &format!("document.querySelector('.lesson').dataset.waiting !== '{action}'"),
            &format!("{variant}: the lesson takes {action}"),
        )
        .await;
    }
    if variant == "reality-check" {
        b.find(".lesson .board .piece .badge.true").await;
    }
    b.shot(&format!("learn-{variant}-done")).await;
}
