app_name = "sizing"

urlpatterns: list[object] = []
