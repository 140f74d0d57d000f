#!/bin/sh
# azd's postdeploy hook of the sales-aggregator service: azd deployed the image to the first shard's app (the one
# tagged with the service's name); the other shards' apps (infra/resources.bicep, sales-aggregator-2..N) get the same
# image here. azd sets SERVICE_SALES_AGGREGATOR_IMAGE_NAME and the outputs of infra/main.bicep (SALES_SHARDS).
set -eu
shard=2
while [ "$shard" -le "${SALES_SHARDS:-1}" ]; do
  az containerapp update --name "sales-aggregator-$shard" --resource-group "$AZURE_RESOURCE_GROUP" \
    --image "$SERVICE_SALES_AGGREGATOR_IMAGE_NAME" --output none
  echo "sales-aggregator-$shard runs $SERVICE_SALES_AGGREGATOR_IMAGE_NAME"
  shard=$((shard + 1))
done
