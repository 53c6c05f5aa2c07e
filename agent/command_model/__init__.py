"""The command model: CAISE's generator-extractor, from a conversation to one executable command.

A conversation (the dialogue history and the image's concept phrases) is encoded by MiniLM + LoRA;
a GRU decoder with a three-way gate (generate / copy from the dialogue / copy from the concepts)
writes the command word by word under the command grammar; hand rules fix what the request states
in words; the confidence says whether the dialogue manager should run it. One file per part:

- :mod:`.grammar`: the decoder's output words and :func:`allowed` (what may follow what);
- :mod:`.tokens`: words of requests and histories, commands <-> decoder words;
- :mod:`.model`: config, encoder, model and ensemble (``forward`` only);
- :mod:`.features`: one dialogue encoded, batches, training targets;
- :mod:`.decode`: beam search under the grammar, returning plain decoder words;
- :mod:`.rules`: the hand rules, one function each, in one ordered registry;
- :mod:`.parser`: the one place that applies the rules and then computes the confidence;
- :mod:`.checkpoint`: safetensors checkpoints carrying their config.

The model is trained by ``python -m training train-commands`` (``training/`` is never imported
from here). The shipped weights were trained on CAISE (CC BY-NC-SA 4.0); see
``resources/command_model/README.md``. Everything callers used to import from the single module
``agent.command_model`` is re-exported here.
"""

from __future__ import annotations

from agent.command_model.checkpoint import (
    DEFAULT_WEIGHTS,
    load_checkpoint,
    save_checkpoint,
    save_ensemble,
    trainable_state,
)
from agent.command_model.decode import LENGTH_ALPHA, Beam, beam_decode
from agent.command_model.features import Features, collate, featurize, make_targets
from agent.command_model.grammar import (
    ARGUMENT_WORDS,
    ATTRIBUTES,
    AXES,
    COMMAND_WORDS,
    EOS,
    LEFT,
    MINUS,
    NONE,
    PAD,
    PLUS,
    RIGHT,
    SPECIALS,
    STRUCTURAL,
    UNK,
    allowed,
    is_number,
)
from agent.command_model.model import (
    ENCODER_INPUTS,
    CommandEnsemble,
    CommandModel,
    CommandModelConfig,
    get_tokenizer,
    minilm_path,
    mpnet_path,
)
from agent.command_model.parser import (
    CommandModelParser,
    Decoded,
    Reading,
    context_of,
    decode_batch,
    load_default_parser,
    read,
)
from agent.command_model.rules import (
    RULE_NAMES,
    RULES,
    Fix,
    Rule,
    RuleContext,
    apply_direction_rules,
    apply_rules,
    colour_of_referent,
    colour_referents,
    concept_rules,
    request_direction,
    request_phrases,
    rule_decisions,
    select_rules,
)
from agent.command_model.tokens import (
    command_to_tokens,
    concept_words,
    history_words,
    previous_command,
    tokens_to_command,
    words_of,
)
from agent.grammar.lexicon import COLOUR_NOUNS as _COLOUR_NOUNS  # noqa: F401  (former private name)
from agent.grammar.lexicon import SEARCH_COLOURS
from agent.grammar.lexicon import noun_key as _noun_key  # noqa: F401  (former private name)

__all__ = [
    "ARGUMENT_WORDS", "ATTRIBUTES", "AXES",
    "COMMAND_WORDS", "DEFAULT_WEIGHTS", "ENCODER_INPUTS", "EOS", "LEFT", "LENGTH_ALPHA", "MINUS", "NONE", "PAD",
    "PLUS", "RIGHT", "RULES", "RULE_NAMES", "SEARCH_COLOURS", "SPECIALS", "STRUCTURAL", "UNK", "Beam",
    "CommandEnsemble", "CommandModel", "CommandModelConfig", "CommandModelParser", "Decoded", "Features", "Fix",
    "Reading", "Rule", "RuleContext", "allowed", "apply_direction_rules", "apply_rules", "beam_decode", "collate",
    "colour_of_referent", "colour_referents", "command_to_tokens", "concept_rules", "concept_words",
    "context_of", "decode_batch", "featurize", "get_tokenizer", "history_words", "is_number", "load_checkpoint",
    "load_default_parser", "make_targets", "minilm_path", "mpnet_path", "previous_command", "read",
    "request_direction", "request_phrases", "rule_decisions", "save_checkpoint", "save_ensemble",
    "select_rules", "tokens_to_command", "trainable_state", "words_of",
]
