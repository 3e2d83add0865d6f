app_name = "guides"

urlpatterns: list[object] = []
