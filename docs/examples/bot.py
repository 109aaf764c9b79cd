"""A bot for bluffchess's Bot API, standard library only.

It waits on its account's event stream, accepts every challenge, and plays each game it starts
with random legal actions until the game ends. With --once it stops after its first game.

    BLUFFCHESS_TOKEN=bc_... python3 bot.py http://127.0.0.1:8080 [--once]

The token is a personal API token of a bot account, made with the scopes play and bot.
"""
import json, os, random, sys, urllib.error, urllib.request

BASE = next((a for a in sys.argv[1:] if not a.startswith("--")), "http://127.0.0.1:8080")
TOKEN = os.environ["BLUFFCHESS_TOKEN"]
ONCE = "--once" in sys.argv


def call(path, body=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method or ("POST" if data else "GET"))
    request.add_header("Authorization", "Bearer " + TOKEN)
    request.add_header("Content-Type", "application/json")
    return urllib.request.urlopen(request, timeout=60)


def ndjson(path):
    """The lines of an NDJSON stream as JSON, skipping keepalives."""
    for line in call(path):
        if line.strip():
            yield json.loads(line)


def play(game_id):
    """Plays one game to its end through its stream: a random legal action when it may act."""
    for message in ndjson(f"/api/games/{game_id}/stream"):
        if message["type"] == "end":
            print("game over:", game_id, json.dumps(message["outcome"]), json.dumps(message.get("ratings")), flush=True)
            return
        legal = message["legal"]
        if legal:
            action = "setup random" if message["setup"] and "setup random" in legal else random.choice(legal)
            try:
                call(f"/api/games/{game_id}/action", {"action": action}).read()
            except urllib.error.HTTPError as refused:  # the game moved on meanwhile (a clock, a resignation)
                print("refused:", action, refused.read().decode(), flush=True)


me = json.load(call("/api/account"))["username"]
print("listening as", me, flush=True)
for event in ndjson("/api/stream/event"):
    if event["type"] == "challenge" and event["challenge"]["destUser"]["name"] == me:
        challenge = event["challenge"]
        print("accepting", challenge["id"], "from", challenge["challenger"]["name"], flush=True)
        call(f"/api/challenge/{challenge['id']}/accept", method="POST").read()
    elif event["type"] == "gameStart":
        play(event["game"]["gameId"])
        if ONCE:
            break
