"""The JSON API root (django-ninja): one router per app, mounted under /api/v1/."""

from django.conf import settings

from gpurent.accounts.api import router as accounts_router
from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.api_ssh_keys import router as ssh_keys_router
from gpurent.catalog.api import router as catalog_router
from gpurent.core.api import ShopAPI, install_error_handlers
from gpurent.exports.api import router as exports_router
from gpurent.guides.api import router as guides_router
from gpurent.journal.api import router as journal_router
from gpurent.orders.api import router as orders_router
from gpurent.payments.api import router as payments_router
from gpurent.payments.api import webhooks as webhooks_router
from gpurent.sizing.api import router as sizing_router
from gpurent.support.api import router as support_router

api = ShopAPI(
    title=f"{settings.BRAND_NAME} API",
    version="1",
    description=(
        "Rent GPU lots for fixed 3, 7 or 30-day terms. Money is a decimal string (USD with two decimals); "
        'errors are `{"error": {"code", "message"}}`.'
    ),
    urls_namespace="api",
)
install_error_handlers(api)
api.add_router("/auth", accounts_router)
api.add_router("/ssh-keys", ssh_keys_router)
api.add_router("/catalog", catalog_router)
api.add_router("/orders", orders_router)
api.add_router("/estimates", sizing_router)
api.add_router("", payments_router)
api.add_router("/webhooks", webhooks_router)
api.add_router("/journal", journal_router)
api.add_router("/exports", exports_router)
api.add_router("/support", support_router)
# Guides may not import accounts (the dependency rule); the root widens its quote endpoints to personal tokens.
guides_router.auth = api_auth
api.add_router("/guides", guides_router)
