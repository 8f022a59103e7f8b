from django.urls import path

from .views import app, correspondence, daily, games, players, push, rooms, rules

app_name = "game"
urlpatterns = [
    path("", rooms.lobby, name="lobby"),
    path("lobby/rooms", rooms.lobby_rooms, name="lobby_rooms"),
    path("play-computer", rooms.play_computer, name="play_computer"),
    path("join", rooms.join_by_code, name="join_by_code"),
    path("r/<slug:code>/", rooms.room, name="room"),
    path("r/<slug:code>/join", rooms.join, name="join"),
    path("name", players.set_name, name="set_name"),
    path("games/<int:pk>/", games.game_detail, name="game_detail"),
    path("games/<int:pk>/dice.json", games.game_dice, name="game_dice"),
    path("games/<int:pk>/analysis", games.game_analysis, name="game_analysis"),
    path("games/<int:pk>/try/<int:seq>", games.game_try, name="game_try"),
    path("p/<slug:public_id>/", players.profile, name="profile"),
    path("p/<slug:public_id>/privacy", players.profile_privacy, name="profile_privacy"),
    path("leaderboard/<slug:rules>/", players.leaderboard, name="leaderboard"),
    path("daily/", daily.home, name="daily"),
    path("daily/commitments.json", daily.commitments, name="daily_commitments"),
    path("daily/<slug:rules>/play", daily.play, name="daily_play"),
    path("daily/<slug:rules>/<str:day>/", daily.day_page, name="daily_day"),
    path("rules/", rules.rules, name="rules"),
    path("games/yours/", correspondence.your_games, name="your_games"),
    path("games/yours/notices", correspondence.notice_settings, name="notice_settings"),
    path("notices/unsubscribe/<str:token>/", correspondence.unsubscribe, name="unsubscribe"),
    path("push/key", push.key, name="push_key"),
    path("push/subscribe", push.subscribe, name="push_subscribe"),
    path("push/unsubscribe", push.unsubscribe, name="push_unsubscribe"),
    # The service worker's scope is the folder of its URL: at the root, it serves every page.
    path("sw.js", app.service_worker, name="service_worker"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("offline", app.offline, name="offline"),
]
