"""Practice mode: faults injected into the lab from a shipped catalog, the answer sealed apart
from the learner's conversation, and checks against the real lab that say when it is fixed."""
