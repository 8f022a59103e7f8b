from django.urls import path

from . import daily_views, profile_views, rules_views, views

app_name = "game"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby/rooms", views.lobby_rooms, name="lobby_rooms"),
    path("play-computer", views.play_computer, name="play_computer"),
    path("join", views.join_by_code, name="join_by_code"),
    path("name", views.set_name, name="set_name"),
    path("r/<slug:code>/", views.room, name="room"),
    path("r/<slug:code>/join", views.join, name="join"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/dice.json", views.game_dice, name="game_dice"),
    path("games/<int:pk>/analysis", views.game_analysis, name="game_analysis"),
    path("games/<int:pk>/try/<int:seq>", views.game_try, name="game_try"),
    path("p/<slug:public_id>/", profile_views.profile, name="profile"),
    path("p/<slug:public_id>/privacy", profile_views.profile_privacy, name="profile_privacy"),
    path("daily/", daily_views.home, name="daily"),
    path("daily/commitments.json", daily_views.commitments, name="daily_commitments"),
    path("daily/<slug:rules>/play", daily_views.play, name="daily_play"),
    path("daily/<slug:rules>/<str:day>/", daily_views.day_page, name="daily_day"),
    path("rules/", rules_views.rules, name="rules"),
    path("leaderboard/<slug:rules>/", profile_views.leaderboard, name="leaderboard"),
]
