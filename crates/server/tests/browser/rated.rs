//! Rated play in two browser profiles: as guests they pair casually; then both sign up and click
//! the same quick-pairing cell, are paired, play a rated game to its end and see their rating
//! changes by the board; the game is on both players' pages (with the rating graph) and in the
//! export; a seek of one's own terms is taken with one click from the list; a challenge from a
//! player's page is accepted (the game opens for both), another declined with a reason (the
//! challenger reads it); a waiting seek is cancelled when its page goes.

use super::{out_dir, Browser, Driver};
use crate::common::TestServer;
use serde_json::Value;
use std::time::Instant;

const CELL: &str = "#quick button[data-quick=\"chess/180+2\"]";

/// Types into the inputs of the form `form`, by name.
async fn fill(br: &Browser, form: &str, fields: &[(&str, &str)]) {
    for (field, value) in fields {
        br.find(&format!("{form} input[name={field}]"))
            .await
            .send_keys(value)
            .await
            .unwrap();
    }
}

/// Signs up as `name` on the sign-up page; the header then names the account.
async fn sign_up(br: &Browser, base: &str, name: &str) {
    br.goto(&format!("{base}/signup")).await;
    let password = "a long enough password";
    fill(br, "#signup", &[("username", name), ("password", password)]).await;
    br.click("#signup-btn").await;
    br.until(
        &format!("document.querySelector('#me').textContent === '{name}'"),
        "the name in the header",
    )
    .await;
}

/// The seeks the lobby lists now.
async fn seeks(ts: &TestServer) -> Vec<Value> {
    let (_, lobby) = ts.get("/api/games", None).await;
    lobby["seeks"].as_array().cloned().unwrap_or_default()
}

/// The id of the game the page shows once it is `status`.
async fn game_shown(br: &Browser, status: &str) -> String {
    br.find(&format!(".game[data-status=\"{status}\"]"))
        .await
        .attr("data-game")
        .await
        .unwrap()
        .unwrap()
}

/// A screenshot while something is animated without end (the waiting seek's pulse), which
/// `Browser::shot` would wait for.
async fn shot_now(br: &Browser, name: &str) {
    let png = br.c.screenshot().await.unwrap();
    std::fs::write(out_dir("screenshots").join(format!("{name}.png")), png).unwrap();
}

/// The page's text at `css`.
async fn text(br: &Browser, css: &str) -> String {
    br.find(css).await.text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_play_between_two_browsers() {
    let started = Instant::now();
    let mut ts = TestServer::start("browser-rated").await;
    let driver = Driver::start().await;
    let (ann, bob) = tokio::join!(
        driver.browser("ann", 1200, 1000),
        driver.browser("bob", 1200, 1000)
    );
    let base = ts.base.clone();

    // Two guests pair casually: the waiting one's stream opens once its seek made it a session.
    ann.goto(&format!("{base}/")).await;
    ann.find("#quick-mode a[href=\"/signup\"]").await;
    ann.click(CELL).await;
    ann.find("#cancel-quick").await;
    let casual = &seeks(&ts).await[0];
    assert_eq!(casual["rated"], false, "{casual}");
    assert_eq!(casual["seeker"]["name"], "guest", "{casual}");
    bob.goto(&format!("{base}/")).await;
    bob.click(CELL).await;
    let id = game_shown(&bob, "live").await;
    assert_eq!(game_shown(&ann, "live").await, id);
    ann.click("button[data-command=abort]").await;
    bob.find(".game[data-status=\"aborted\"]").await;

    sign_up(&ann, &base, "ann_r").await;
    sign_up(&bob, &base, "bob_r").await;

    // A waiting seek goes with its page.
    ann.goto(&format!("{base}/")).await;
    ann.click(CELL).await;
    ann.find("#cancel-quick").await;
    assert_eq!(seeks(&ts).await.len(), 1);
    ann.goto(&format!("{base}/player")).await;
    let gone = Instant::now();
    while !seeks(&ts).await.is_empty() {
        assert!(gone.elapsed() < super::WAIT, "the seek outlived its page");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // Quick pairing: Ann waits, Bob sees her seek and clicks the same cell.
    ann.goto(&format!("{base}/")).await;
    ann.click(CELL).await;
    ann.find(&format!("{CELL}.waiting")).await;
    shot_now(&ann, "rated-quick-waiting").await;
    bob.goto(&format!("{base}/")).await;
    bob.find("#seeks li[data-seek] .player-link").await;
    let listed = text(&bob, "#seeks li[data-seek]").await;
    assert!(
        !listed.contains("Cancel"),
        "another's seek is taken, not cancelled"
    );
    assert!(
        listed.contains("ann_r") && listed.contains("1500?"),
        "{listed}"
    );
    assert!(
        listed.contains("3+2") && listed.contains("rated"),
        "{listed}"
    );
    bob.shot("rated-lobby-seeks").await;
    bob.click(CELL).await;
    let id = game_shown(&bob, "live").await;
    assert_eq!(game_shown(&ann, "live").await, id, "both in one game");
    assert!(seeks(&ts).await.is_empty());

    // A rated game to its end: a move each, then White resigns.
    let ann_seat = ann
        .js("return document.querySelector('.game').dataset.seat;")
        .await;
    let (white, black) = match ann_seat == "white" {
        true => (&ann, &bob),
        false => (&bob, &ann),
    };
    white.my_turn().await;
    white.type_action("e2e4").await;
    black.my_turn().await;
    black.type_action("e7e5").await;
    white.my_turn().await;
    white.resign().await;
    for (br, sign) in [(white, "\u{2212}"), (black, "+")] {
        br.find(".game[data-status=\"over\"]").await;
        br.until(
            "document.querySelectorAll('.player .rating-diff').length === 2",
            "both rating changes by the board",
        )
        .await;
        let mine = text(br, ".player .name:has(.rating-diff) a[href='/@/ann_r']").await;
        assert_eq!(mine, "ann_r");
        let diffs = br
            .js("return [...document.querySelectorAll('.player .rating-diff')].map((d) => d.className + ' ' + d.textContent);")
            .await;
        let diffs = diffs.to_string();
        assert!(
            diffs.contains("down \u{2212}") && diffs.contains("up +"),
            "{diffs}"
        );
        let own = br
            .js("return [...document.querySelectorAll('.player .name')].find((n) => n.textContent.includes('(you)')).querySelector('.rating-diff').textContent;")
            .await;
        assert!(own.as_str().unwrap().starts_with(sign), "{own}");
    }
    ann.shot("rated-end-ann").await;
    bob.shot("rated-end-bob").await;

    // Both players' pages list the game and draw the graph; the export holds it.
    for (br, name) in [(&ann, "ann_r"), (&bob, "bob_r")] {
        br.click("#me").await;
        br.find(&format!(".player-page[data-player=\"{name}\"]"))
            .await;
        let row = text(br, &format!("#played li[data-game=\"{id}\"]")).await;
        assert!(row.contains("rated") && row.contains("Chess"), "{row}");
        let won = (br.name == "ann") == (white.name == "bob");
        assert!(
            row.starts_with(if won { "Won" } else { "Lost" }),
            "{name}: {row}"
        );
        br.find(&format!(
            "#played li[data-game=\"{id}\"] a.replay[href=\"/replay/{id}\"]"
        ))
        .await;
        let opponent = if name == "ann_r" { "bob_r" } else { "ann_r" };
        br.find(&format!(
            "#played li[data-game=\"{id}\"] a[href=\"/@/{opponent}\"]"
        ))
        .await;
        let rating = text(br, "#ratings tr[data-variant=chess] .rating").await;
        assert!(rating.ends_with('?'), "{rating}");
        let points = br
            .js("return document.querySelector('#graphs figure[data-variant=chess] polyline').getAttribute('points').split(' ').length;")
            .await;
        assert_eq!(points, 2, "the start and one game");
        let export = br
            .find("#export")
            .await
            .attr("href")
            .await
            .unwrap()
            .unwrap();
        let (status, lines) = ts.get_text(&export, None).await;
        assert_eq!(status, 200);
        let (_, record) = ts.get(&format!("/api/games/{id}/record"), None).await;
        let exported: Vec<Value> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(exported, vec![record], "the export holds the game's record");
        br.shot(&format!("rated-player-{}", br.name)).await;
    }
    ann.click("#players-link").await;
    ann.find("#top-chess li").await;
    ann.shot("rated-leaderboards").await;

    // A seek of Ann's own terms, taken by Bob with one click from the list.
    ann.goto(&format!("{base}/")).await;
    ann.click("#custom-seek summary").await;
    ann.select("#seek-form select[name=variant]", "bs").await;
    ann.click("#seek-form input[data-term=spy]").await;
    ann.select("#seek-form select[name=clock]", "600+5").await;
    fill(&ann, "#seek-form", &[("low", "1000"), ("high", "2000")]).await;
    ann.click("#seek-btn").await;
    ann.find("#seeks li.own button[data-cancel-seek]").await;
    bob.goto(&format!("{base}/")).await;
    let offered = text(&bob, "#seeks li[data-seek]:has(button[data-take])").await;
    assert!(
        offered.contains("BS Chess 10+5 (spy), rated, for 1000–2000"),
        "{offered}"
    );
    bob.c.set_window_size(390, 844).await.unwrap();
    bob.until("document.documentElement.clientWidth < 500", "phone width")
        .await;
    bob.shot("rated-lobby-phone").await;
    bob.c.set_window_size(1200, 1000).await.unwrap();
    bob.click("#seeks button[data-take]").await;
    let taken = game_shown(&bob, "live").await;
    assert_eq!(game_shown(&ann, "live").await, taken);
    bob.find(".game[data-variant=bs]").await;
    bob.click("button[data-command=abort]").await;
    ann.find(".game[data-status=\"aborted\"]").await;

    // A challenge from Bob's page, accepted: the game opens for both.
    ann.goto(&format!("{base}/@/bob_r")).await;
    ann.click("#challenge summary").await;
    ann.select("#challenge-form select[name=clock]", "600+5")
        .await;
    ann.click("#challenge-btn").await;
    ann.find("#challenges li.outgoing").await;
    let incoming = text(&bob, "#challenges li.incoming").await;
    assert!(
        incoming.contains("ann_r") && incoming.contains("10+5"),
        "{incoming}"
    );
    bob.click("#theme").await;
    bob.find("html[data-theme=\"dark\"]").await;
    bob.shot("rated-challenge-incoming-dark").await;
    bob.click("#theme").await;
    bob.click("#challenges li.incoming button[data-accept]")
        .await;
    let challenged = game_shown(&bob, "live").await;
    assert_eq!(game_shown(&ann, "live").await, challenged);
    assert_ne!(challenged, id);
    ann.until(
        "document.querySelector('#challenges').hidden",
        "the panel emptied",
    )
    .await;
    ann.click("button[data-command=abort]").await;
    bob.find(".game[data-status=\"aborted\"]").await;

    // Another, declined with a reason: Ann reads it.
    ann.goto(&format!("{base}/@/bob_r")).await;
    ann.click("#challenge summary").await;
    ann.click("#challenge-btn").await;
    bob.find("#challenges li.incoming").await;
    bob.select("#challenges li.incoming select", "tooFast")
        .await;
    bob.click("#challenges li.incoming button[data-decline]")
        .await;
    let said = text(&ann, "#challenges li.note").await;
    assert!(
        said.contains("bob_r declined your challenge") && said.contains("too fast"),
        "{said}"
    );
    bob.until(
        "document.querySelector('#challenges').hidden",
        "Bob's panel emptied",
    )
    .await;
    ann.shot("rated-challenge-declined").await;

    for br in [&ann, &bob] {
        br.no_policy_violations().await;
    }
    ann.close().await;
    bob.close().await;
    driver.stop().await;
    ts.stop().await;
    eprintln!("rated play in the browser: {:?}", started.elapsed());
}
