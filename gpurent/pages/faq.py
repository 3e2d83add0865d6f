"""The help page (FAQ): the questions a first-time customer asks, answered in the shop's own words.

The answers follow the shop's Vietnamese FAQ (the reference text for Vietnamese, in `locale/vi`), each at a
stable anchor so pages link to the answer where the question arises: `/help/#reporting` from the payment
section, `/help/#first-rental` from the estimator. `%(brand)s` is the shop's `BRAND_NAME`, `%(methods)s` the
accepted asset/network pairs as the checkout lists them (`payments.assets.PAIRS`), so a new pair needs no new text.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["FAQ", "SECTIONS", "Answer"]


@dataclass(frozen=True, slots=True)
class Answer:
    slug: str
    question: Promise
    paragraphs: tuple[Promise, ...]


@dataclass(frozen=True, slots=True)
class Section:
    slug: str
    title: Promise
    answers: tuple[Answer, ...]


SECTIONS: tuple[Section, ...] = (
    Section(
        "before",
        _("Before your first rental"),
        (
            Answer(
                "first-rental",
                _("How do I size my first rental?"),
                (
                    _(
                        "Start from the model and the question you need to answer. Estimate the weights, then add "
                        "the cache, activations and buffers of your run. A 3-day rental is enough to load the "
                        "model, check the dependencies and measure the memory peak. Then compare the "
                        "configurations that have enough memory: a newer card does not replace a workflow that "
                        "fits your workload."
                    ),
                ),
            ),
            Answer(
                "terms",
                _("Which term should I choose: 3, 7 or 30 days?"),
                (
                    _(
                        "Rentals last 3, 7 or 30 days. You choose 1 to 10 lots at checkout: a lot is one card, "
                        "except B200, where a lot is two cards. Three days suit a targeted validation of one "
                        "question, seven days a set of variants, and thirty days an organised campaign. Prepare "
                        "your data and a restore point before the computation starts, so the whole term goes to "
                        "your goal."
                    ),
                ),
            ),
            Answer(
                "prices",
                _("What does the price cover, and what does the stock mean?"),
                (
                    _(
                        "The price shown is for one lot for the chosen term, in USD. The order total multiplies "
                        "it by the number of lots. Stock is the number of cards available, or of two-card lots "
                        "for B200. For example, two B200 lots are four GPUs: the lot price is not multiplied by "
                        "two a second time."
                    ),
                ),
            ),
            Answer(
                "checkout",
                _("How does checkout work, and do I need identity documents?"),
                (
                    _(
                        "Choose the GPU, the term, the number of lots and the environment you want: Ubuntu, "
                        "PyTorch, Blender or other. Then create an account with your first name, last name, "
                        "email and password, or choose “I already have an account” to log in. Check the details "
                        "filled in for you if you are logged in, then go on to the summary. No identity document "
                        "is asked for."
                    ),
                ),
            ),
            Answer(
                "multi-gpu",
                _("Do several GPUs add up to one big memory?"),
                (
                    _(
                        "Each card has its own memory. A distributed program must place its data or its "
                        "computation explicitly on several devices; two GPUs do not automatically form one "
                        "large GPU. Replicating the model, splitting the layers and sharding the training state "
                        "answer different needs. Choose your strategy before ordering several lots."
                    ),
                ),
            ),
            Answer(
                "plan-term",
                _("How do I make the most of a fixed term?"),
                (
                    _(
                        "Define the essential tests, the optional variants and your stop criteria. Run a small "
                        "complete case before starting long runs. Keep the code versions, parameters, "
                        "measurements and a checkpoint you have actually reloaded. Also plan time to check and "
                        "export the results, so the whole period is not spent on computation alone."
                    ),
                ),
            ),
        ),
    ),
    Section(
        "payment",
        _("Paying"),
        (
            Answer(
                "identity",
                _("Do you check my identity? Are crypto payments anonymous?"),
                (
                    _(
                        "%(brand)s asks for no identity document and no KYC identity verification to rent. "
                        "Checkout still keeps your first name, last name and contact email. You choose an asset "
                        "and its network, then make the transfer from your wallet. This process without identity "
                        "checks does not make transactions on a public blockchain anonymous."
                    ),
                ),
            ),
            Answer(
                "assets",
                _("Which cryptocurrencies and networks can I pay with?"),
                (
                    _(
                        "The methods are %(methods)s. Choose the asset/network pair shown in the order. For a "
                        "token such as USDT the name alone does not identify the destination: the instructions "
                        "name its network."
                    ),
                ),
            ),
            Answer(
                "intents",
                _("What are payment instructions, and what if they expire?"),
                (
                    _(
                        "The order keeps its total in USD. The instructions give an exact crypto amount, a rate "
                        "and a deadline. Use instructions that are still valid when you prepare the transfer. If "
                        "they expire before you send, ask for new instructions from the order; the new amount "
                        "follows the rate at that moment."
                    ),
                ),
            ),
            Answer(
                "reporting",
                _("What happens after I send the payment?"),
                (
                    _(
                        "After the transfer, click the button of the instructions you used. The message “Payment "
                        "reported. Awaiting verification.” shows that your report was recorded, and it is still "
                        "shown when you come back. The payment is then verified. If you used older instructions, "
                        "open them in the history and use their own button."
                    ),
                ),
            ),
            Answer(
                "balance",
                _("How do the balance, top-ups and references work?"),
                (
                    _(
                        "A confirmed crypto top-up credits your USD balance. Then open the rental order and "
                        "choose to pay from the balance when it covers the order amount. The top-up and the "
                        "rental each keep their own reference, and the ledger lets you follow the credit and "
                        "then the debit. Merely recording a top-up adds no available money."
                    ),
                ),
            ),
        ),
    ),
    Section(
        "renting",
        _("During the rental"),
        (
            Answer(
                "my-rentals",
                _("Where do I follow my rental?"),
                (
                    _(
                        "You find the record in “My rentals”, then in the list of orders. The record shows the "
                        "amount, the payment and the provisioning step separately. “Payment reported” "
                        "corresponds to your declaration; “Paid” to a confirmed payment. Then follow the "
                        "preparation status and the access details once they are provided."
                    ),
                ),
            ),
            Answer(
                "own-code",
                _("Can I run my own code and software?"),
                (
                    _(
                        "Yes. You choose the code, the model, the dependencies and the processing you run on "
                        "the rented GPU. Prepare an environment whose versions and needs you know well. To move "
                        "to another hardware family, check that your libraries and extensions are compatible "
                        "before moving a whole workflow."
                    ),
                ),
            ),
            Answer(
                "privacy",
                _("Do you look at my files, prompts or results?"),
                (
                    _(
                        "The service does not inspect the content of your files, prompts or computations. You "
                        "keep control of your processing and your results. Commercial records use order and "
                        "payment data; this policy is no promise that no technical data exists, nor of absolute "
                        "anonymity."
                    ),
                ),
            ),
            Answer(
                "sessions",
                _("How do I find my orders again, and what happens to guest data?"),
                (
                    _(
                        "Log in to %(brand)s with your account's email and password to find your orders, balance "
                        "and journal again. Logging out only closes the session. Data from an earlier guest "
                        "session can be kept when you register from that session, if the session is still valid "
                        "and not yet linked. The same email address is not enough to recover records from "
                        "another browser. Download the summary of your orders to keep the references you need."
                    ),
                ),
            ),
            Answer(
                "support",
                _("What should a support request contain?"),
                (
                    _(
                        "Give the order reference, the GPU model, the library versions and the steps that "
                        "reproduce the problem. If you can, reduce the case to one representative input and say "
                        "what you expected. In the private request, remove secrets and attach useful messages as "
                        "text; keep business data and complete files under your control."
                    ),
                ),
            ),
        ),
    ),
    Section(
        "measuring",
        _("Estimates and measurements"),
        (
            Answer(
                "model-size",
                _("Does the model's size tell me how much memory I need?"),
                (
                    _(
                        "No. It gives a basis for storing the parameters. The work adds other objects: "
                        "activations and temporary allocations, gradients and optimizer state during training, "
                        "and possibly a cache during generation. Prepare an estimate with the sizes of your "
                        "workload, then measure a representative run."
                    ),
                ),
            ),
            Answer(
                "estimate",
                _("Is the estimate a guarantee?"),
                (
                    _(
                        "It is an assumption computed from your inputs and the items shown explicitly. It helps "
                        "organise the choice; it guarantees neither that a model loads nor its speed. The sizes, "
                        "formats and overheads of the software you use can change the need. Keep the estimate "
                        "with its date, then compare it with the measured peak."
                    ),
                ),
            ),
            Answer(
                "precision",
                _("Should I use a lower precision?"),
                (
                    _(
                        "A lower precision changes the trade-off between memory, computation and numerical "
                        "behaviour. Compare it on the same inputs with your quality criteria. Keep the format of "
                        "the weights, the format of the computation and the library versions together: their "
                        "combination lets you reproduce the chosen variant."
                    ),
                ),
            ),
            Answer(
                "parallel",
                _("What must my program do to use several GPUs?"),
                (
                    _(
                        "The program must split the work and, if needed, the model's state between the devices. "
                        "Several cards do not automatically become one memory space. Choose the parallelism "
                        "strategy from the model, then measure the peak on each GPU. A B200 lot has two GPUs; "
                        "memory is still described per card."
                    ),
                ),
            ),
            Answer(
                "journal",
                _("What is the experiment journal for?"),
                (
                    _(
                        "The journal gathers the hypotheses, environment versions, parameters and observations "
                        "you write into it. Use one entry per experimental question: for example, comparing two "
                        "precisions at a constant batch or measuring the effect of the context on the cache. A "
                        "clear note ties the configuration to the measurement and the conclusion; it does not "
                        "mistake an estimate for an observed result."
                    ),
                ),
            ),
            Answer(
                "comparing",
                _("How do I compare configurations fairly?"),
                (
                    _(
                        "Keep the model, data set, versions, input length and measurement rules the same. Change "
                        "one variable at a time. Tell the first runs apart from the steady state, and measure "
                        "output quality too, not only speed. Record failures: an exceeded memory peak is useful "
                        "information for choosing the next configuration."
                    ),
                ),
            ),
            Answer(
                "experiments",
                _("How do I organise a series of experiments?"),
                (
                    _(
                        "First define the question, the metrics and the quality criteria. Keep the inputs, "
                        "versions, parameters, measurement method and result of each run. Explain what changes "
                        "between variants. If several factors change at once, you can compare whole "
                        "configurations, but you cannot attribute the difference to just one of those factors."
                    ),
                ),
            ),
            Answer(
                "reproducibility",
                _("Does fixing the seed make a run reproducible?"),
                (
                    _(
                        "It controls some sources of randomness, not every difference in execution. PyTorch does "
                        "not guarantee full reproducibility across versions, platforms and devices. Record the "
                        "seeds, the determinism settings and the environment. Also decide what you count as "
                        "reproducible: exactly the same values, or equivalent results within an explained "
                        "tolerance."
                    ),
                ),
            ),
        ),
    ),
)

FAQ: tuple[Answer, ...] = tuple(answer for section in SECTIONS for answer in section.answers)
