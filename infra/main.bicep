// The Azure deployment `azd up` provisions (azure.yaml): one resource group holding the system as
// docker/compose.yaml runs it, on Azure Container Apps and Azure Database for MySQL. Compiled and linted by the test
// suite with the Bicep CLI; never deployed from this repository's machines (docs/deployment.md).
targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('The azd environment\'s name: names the resource group and tags every resource.')
param environmentName string

@minLength(1)
@description('The Azure region of every resource.')
param location string

@description('Who runs azd (AZURE_PRINCIPAL_ID): may read the vault\'s secrets, for the postprovision hook\'s SQL.')
param principalId string = ''

@secure()
@description('MySQL\'s administrator password; azd generates it once and keeps it in the environment.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param mysqlAdminPassword string

@secure()
@description('The schema owner\'s MySQL password: only the schema-migration job connects with it.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param mysqlOwnerPassword string

@secure()
@description('The Purchases writers\' MySQL password (rows only), made by the postprovision hook\'s SQL.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param mysqlWriterPassword string

@secure()
@description('The Sales aggregator\'s MySQL password (the sales ledger only).')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param mysqlReaderPassword string

@secure()
@description('The RabbitMQ administrator\'s password.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param rabbitmqAdminPassword string

@secure()
@description('The API\'s RabbitMQ password.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param rabbitmqApiPassword string

@secure()
@description('The Purchases writers\' RabbitMQ password.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param rabbitmqWriterPassword string

@secure()
@description('The Sales aggregator\'s RabbitMQ password.')
@metadata({ azd: { type: 'generate', config: { length: 32, noSpecial: true } } })
param rabbitmqAggregatorPassword string

@secure()
@description('The key tills\' and analysts\' credentials are signed with (Auth:SigningKey, docs/security.md).')
@metadata({ azd: { type: 'generate', config: { length: 64, noSpecial: true } } })
param signingKey string

@minValue(1)
@description('Sales shards: the catalog\'s items split into this many contiguous ranges, each counted by aggregators of its own (docs/operations.md, "Sales shards"). azd reads it from SALES_SHARDS.')
param salesShards int = 1

@minValue(1)
@description('Aggregators of each sales shard, competing on its questions: with two, a shard answers through one\'s restart. azd reads it from SALES_SHARD_REPLICAS.')
param salesShardReplicas int = 1

var tags = { 'azd-env-name': environmentName }

resource group 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: 'rg-${environmentName}'
  location: location
  tags: tags
}

module system 'resources.bicep' = {
  name: 'supermarket'
  scope: group
  params: {
    location: location
    tags: tags
    principalId: principalId
    mysqlAdminPassword: mysqlAdminPassword
    mysqlOwnerPassword: mysqlOwnerPassword
    mysqlWriterPassword: mysqlWriterPassword
    mysqlReaderPassword: mysqlReaderPassword
    rabbitmqAdminPassword: rabbitmqAdminPassword
    rabbitmqApiPassword: rabbitmqApiPassword
    rabbitmqWriterPassword: rabbitmqWriterPassword
    rabbitmqAggregatorPassword: rabbitmqAggregatorPassword
    signingKey: signingKey
    salesShards: salesShards
    salesShardReplicas: salesShardReplicas
  }
}

// What azd needs to push the images and what the postprovision hook needs to make the database's users.
output AZURE_CONTAINER_REGISTRY_ENDPOINT string = system.outputs.registryLoginServer
output AZURE_RESOURCE_GROUP string = group.name
output AZURE_KEY_VAULT_NAME string = system.outputs.keyVaultName
output AZURE_MYSQL_HOST string = system.outputs.mysqlHost
output AZURE_MYSQL_ADMIN_USER string = system.outputs.mysqlAdminUser
output SUPERMARKET_API_URL string = system.outputs.apiUrl
// The sales-aggregator service's postdeploy hook gives every shard's app the image azd deployed to the first.
output SALES_SHARDS int = salesShards
