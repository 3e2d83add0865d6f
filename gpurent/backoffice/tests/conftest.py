from gpurent.payments.tests.conftest import payment_setup  # noqa: F401 (a shared fixture)
