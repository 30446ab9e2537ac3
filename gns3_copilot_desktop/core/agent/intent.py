"""Whether a user's message asks for a change to the lab, by a fixed rule in English and Chinese.

A model on the user's own computer reads every tool schema of every call, slowly (SmolLM2-135M on
two cores: over 120 s for the 25 schemas). Such a turn is offered the tools that read the lab, and
the tools that change it only when the message asks for a change (`asks_for_change`). The rule is
deliberately wide: a word that might ask for a change offers the change tools (a few seconds more),
while a miss costs the user one more message ("add it"). It decides only what the model is
offered: every change still waits for the user's approval.
"""

from __future__ import annotations

import re

# English verbs (any ending but "-ed": "stopped", "configured", "connected" describe a state the
# user asks about) and phrases that ask for an action.
_EN_VERBS = (
    "add", "apply", "assign", "build", "cabl", "captur", "chang", "config", "connect", "creat",
    "delet", "deploy", "disabl", "disconnect", "drop", "enabl", "erase", "fix", "implement",
    "insert", "install", "make", "modif", "mov", "place", "plan", "push", "put", "reboot",
    "reload", "remov", "renam", "repair", "replac", "reset", "restart", "restor", "resum",
    "rollback", "save", "set", "setup", "shut", "snapshot", "start", "stop", "suspend",
    "turn", "undo", "updat", "wire", "writ",
)  # fmt: skip
_EN_PHRASES = (
    "go ahead", "do it", "do that", "yes", "yep", "ok", "okay", "sure", "please proceed",
    "proceed", "approve", "let's", "lets",
)  # fmt: skip
# Chinese: no word boundaries; each of these only appears in a request for an action.
_ZH_WORDS = tuple(
    (  # noqa: SIM905 (one string: ruff counts each of these characters two columns wide)
        "创建 新建 添加 加一 加个 增加 删除 删掉 删了 移除 去掉 重命名 "
        "改名 改成 改为 修改 更改 启动 开启 开机 停止 关闭 关机 暂停 "
        "挂起 重启 重新加载 配置 设置 设定 连接 连线 连上 接上 断开 搭建 "
        "搭一 建一 构建 部署 规划 应用 修复 解决 移动 挪 快照 恢复 还原 "
        "撤销 备注 注释 抓包 执行 保存 好的 是的 确定 继续 做吧 就这样"
    ).split()
)

_EN_VERB_RULE = re.compile(r"\b(?:" + "|".join(_EN_VERBS) + r")\w*", re.IGNORECASE)
_EN_PHRASE_RULE = re.compile(
    r"\b(?:" + "|".join(map(re.escape, _EN_PHRASES)) + r")\b", re.IGNORECASE
)


def asks_for_change(text: str) -> bool:
    """Whether ``text`` (a user's message) may ask for a change to the lab or a device."""
    if any(word in text for word in _ZH_WORDS) or _EN_PHRASE_RULE.search(text):
        return True
    return any(not m.group().lower().endswith("ed") for m in _EN_VERB_RULE.finditer(text))
