#!/bin/sh
# azd's postdeploy hook of the purchases-writer service: the schema-migration job (infra/resources.bicep) runs the
# image azd just deployed with `migrate`, as the schema owner, and this waits for it to end (at most an hour: a
# migration that builds an index on a long history takes minutes). The new writers stop at start until the schema is
# current, then Container Apps starts them again. azd sets SERVICE_PURCHASES_WRITER_IMAGE_NAME and the outputs of
# infra/main.bicep.
set -eu
job=schema-migration
az containerapp job update --name "$job" --resource-group "$AZURE_RESOURCE_GROUP" --image "$SERVICE_PURCHASES_WRITER_IMAGE_NAME" --output none
execution=$(az containerapp job start --name "$job" --resource-group "$AZURE_RESOURCE_GROUP" --query name --output tsv)
deadline=$(($(date +%s) + 3600))
while :; do
  status=$(az containerapp job execution show --name "$job" --resource-group "$AZURE_RESOURCE_GROUP" \
    --job-execution-name "$execution" --query properties.status --output tsv)
  case $status in
    Succeeded) echo "the schema is current ($job execution $execution)"; exit 0 ;;
    Failed | Stopped | Degraded) echo "the schema migration ended $status: az containerapp job logs show --name $job" >&2; exit 1 ;;
  esac
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "the schema migration ($job execution $execution) did not end within an hour" >&2
    exit 1
  fi
  sleep 10
done
