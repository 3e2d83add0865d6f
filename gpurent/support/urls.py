app_name = "support"

urlpatterns: list[object] = []
