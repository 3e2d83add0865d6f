"""Payment models, one module per concern; every model is importable from `gpurent.payments.models`."""

from .addresses import *  # noqa: F403
from .chain import *  # noqa: F403
from .intents import *  # noqa: F403
from .payouts import *  # noqa: F403
from .rates import *  # noqa: F403
from .received import *  # noqa: F403
from .webhooks import *  # noqa: F403
