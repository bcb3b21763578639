#!/bin/sh
# Makes a preview of a reference image and orders its HD image with an API token, then waits for
# the HD image and prints its file name (docs/api.md). Needs curl; no JSON tool.
#
#   TESSERA_URL=http://localhost:8080 TESSERA_USER=alice TESSERA_TOKEN=tsr_… \
#     sh hd-with-token.sh reference.png
#
# The token needs the scopes read (statuses) and generate (the preview and the HD order).
set -eu

BASE=${TESSERA_URL:-http://localhost:8080}
TOKEN=${TESSERA_TOKEN:?set TESSERA_TOKEN to an API token}
USER_NAME=${TESSERA_USER:?set TESSERA_USER to the username of the token owner}
REFERENCE=${1:?name a reference image}
SIZE=${TESSERA_HD_SIZE:-30x30}
AUTH="Authorization: Bearer $TOKEN"
NAME=$(basename "$REFERENCE")

# A string field of a one-line JSON answer ("" when absent).
field() { printf '%s' "$1" | sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p"; }

# A request whose answer must have this status; a refusal prints the server's text and stops.
call() {
  expected=$1
  shift
  answer=$(curl -sS -w '\n%{http_code}' -H "$AUTH" "$@")
  status=$(printf '%s' "$answer" | tail -n 1)
  body=$(printf '%s' "$answer" | sed '$d')
  if [ "$status" != "$expected" ]; then
    echo "$status: $(field "$body" error)" >&2
    exit 1
  fi
  printf '%s' "$body"
}

# 1. The preview: SPEC §7's multipart form (the file and its name are both the field `image`).
call 202 -F "image=@$REFERENCE" -F "id=preview-$$-$(date +%s)" -F "user=$USER_NAME" -F "image=$NAME" \
  -F cliptextencode_585='weathered stone tiles' -F cliptextencode_716='blurry, text' \
  -F ipadapter_weight=0.9 -F style=0 -F ksampler_cfg=3.5 -F ksampler_denoise=1 \
  -F use_fixed_seed=True -F latent_width=1024 -F latent_height=1024 -F Kseed=10 \
  -F seamless=enable -F circularVAE=disable "$BASE/api/command/generate-image/preview" >/dev/null

while :; do
  body=$(call 200 "$BASE/api/query/status-generate-image/preview?t=$(date +%s)")
  case $(field "$body" status) in
    finished) LD=$(field "$body" output_image); break ;;
    error) echo 'the preview failed' >&2; exit 1 ;;
  esac
  sleep 3 # SPEC §4 polls every 3 s
done
echo "preview: $LD" >&2

# 2. The HD order, by size label, and its status by the id we gave it.
ORDER="hd-$$-$(date +%s)"
call 202 -H 'content-type: application/json' \
  -d "{\"id\":\"$ORDER\",\"image\":\"$LD\",\"size\":\"$SIZE\"}" \
  "$BASE/api/command/generate-image" >/dev/null
while :; do
  body=$(call 200 "$BASE/api/query/hd-jobs/$ORDER")
  case $(field "$body" status) in
    finished) field "$body" output_image; echo; break ;;
    error) echo "the HD image failed: $(field "$body" error)" >&2; exit 1 ;;
  esac
  sleep 3
done
