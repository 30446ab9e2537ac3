#!/usr/bin/env bash
# Regenerates the translations: pylupdate6 collects every translatable string of the package into
# resources/translations/gns3_copilot_<lang>.ts (keeping the translations already there; new
# strings come in as "unfinished" until someone translates them, e.g. in Qt Linguist), then Qt's
# lrelease compiles each .ts into the .qm the app loads. Commit both files.
#   bash packaging/update_translations.sh            # all languages
#   LRELEASE=/path/to/lrelease bash packaging/update_translations.sh
# lrelease comes with Debian's qt6-l10n-tools (/usr/lib/qt6/bin/lrelease).
set -euo pipefail
cd "$(dirname "$0")/.."
LANGS=(zh_CN)
PYLUPDATE=${PYLUPDATE:-.venv/bin/pylupdate6}
LRELEASE=${LRELEASE:-$(command -v lrelease || echo /usr/lib/qt6/bin/lrelease)}
if [ ! -x "$LRELEASE" ]; then
    echo "lrelease not found: install Debian's qt6-l10n-tools or set LRELEASE" >&2
    exit 1
fi
for lang in "${LANGS[@]}"; do
    ts=resources/translations/gns3_copilot_$lang.ts
    "$PYLUPDATE" --no-obsolete --no-summary gns3_copilot_desktop --ts "$ts"
    "$LRELEASE" -silent "$ts" -qm "${ts%.ts}.qm"
    unfinished=$(grep -c 'type="unfinished"' "$ts" || true)
    if [ "$unfinished" != 0 ]; then
        echo "$ts: $unfinished message(s) still to translate" >&2
    fi
done
