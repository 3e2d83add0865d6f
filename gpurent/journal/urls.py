app_name = "journal"

urlpatterns: list[object] = []
