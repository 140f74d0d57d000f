// Everything of one Supermarket environment, in one resource group: monitoring, identity and secrets, the registry
// azd pushes the images to, MySQL, and the Container Apps environment running RabbitMQ, the API, the Purchases
// writers and the Sales aggregator's shards (app.bicep, once per service and shard).

param location string
param tags object
param principalId string

@secure()
param mysqlAdminPassword string
@secure()
param mysqlOwnerPassword string
@secure()
param mysqlWriterPassword string
@secure()
param mysqlReaderPassword string
@secure()
param rabbitmqAdminPassword string
@secure()
param rabbitmqApiPassword string
@secure()
param rabbitmqWriterPassword string
@secure()
param rabbitmqAggregatorPassword string
@secure()
param signingKey string
@minValue(1)
param salesShards int
@minValue(1)
param salesShardReplicas int

var suffix = uniqueString(resourceGroup().id)
var mysqlAdminUser = 'supermarket_admin'
// The accounts of every deployment (docs/security.md); their rights are scripts/broker-rights/, as locally.
var brokerUsers = {
  api: 'supermarket_api'
  writer: 'supermarket_writer'
  aggregator: 'supermarket_aggregator'
}
var database = 'supermarket'
// Azure's MySQL only takes TLS connections (require_secure_transport); the services verify the server's certificate.
var databaseAt = 'Server=${mysql.properties.fullyQualifiedDomainName};Port=3306;Database=${database};SslMode=VerifyFull'
var writerQueue = 'supermarket.purchases.writer'

// ---------------------------------------------------------------- monitoring

resource logs 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: 'log-${suffix}'
  location: location
  tags: tags
  properties: {
    sku: { name: 'PerGB2018' }
    retentionInDays: 30
  }
}

// Fed by the services' OpenTelemetry through Azure.Monitor.OpenTelemetry.Exporter (APPLICATIONINSIGHTS_CONNECTION_STRING).
resource insights 'Microsoft.Insights/components@2020-02-02' = {
  name: 'appi-${suffix}'
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: logs.id
  }
}

// ---------------------------------------------------------------- identity and secrets

// The one identity the container apps run as: it pulls their images and reads their secrets, nothing else.
resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: 'id-${suffix}'
  location: location
  tags: tags
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: 'kv-${suffix}'
  location: location
  tags: tags
  properties: {
    tenantId: subscription().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    enablePurgeProtection: true
  }
}

var secretsUserRole = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '4633458b-17de-408a-b874-0445c86b69e6')
resource readsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, identity.id, secretsUserRole)
  scope: vault
  properties: {
    principalId: identity.properties.principalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: secretsUserRole
  }
}

resource deployerReadsSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(principalId)) {
  name: guid(vault.id, principalId, secretsUserRole)
  scope: vault
  properties: {
    principalId: principalId
    principalType: 'User'
    roleDefinitionId: secretsUserRole
  }
}

// RabbitMQ loads its users and their rights at boot from this secret, mounted as a file (rabbitmq.conf below).
var brokerDefinitions = {
  users: [
    { name: 'supermarket_admin', password: rabbitmqAdminPassword, tags: 'administrator' }
    { name: brokerUsers.api, password: rabbitmqApiPassword, tags: '' }
    { name: brokerUsers.writer, password: rabbitmqWriterPassword, tags: '' }
    { name: brokerUsers.aggregator, password: rabbitmqAggregatorPassword, tags: '' }
  ]
  vhosts: [ { name: '/' } ]
  permissions: [
    union({ user: 'supermarket_admin', vhost: '/' }, { configure: '.*', write: '.*', read: '.*' })
    union({ user: brokerUsers.api, vhost: '/' }, loadJsonContent('../scripts/broker-rights/api.json'))
    union({ user: brokerUsers.writer, vhost: '/' }, loadJsonContent('../scripts/broker-rights/writer.json'))
    union({ user: brokerUsers.aggregator, vhost: '/' }, loadJsonContent('../scripts/broker-rights/aggregator.json'))
  ]
}

var secrets = {
  'mysql-admin-password': mysqlAdminPassword
  'mysql-owner-password': mysqlOwnerPassword
  'mysql-writer-password': mysqlWriterPassword
  'mysql-reader-password': mysqlReaderPassword
  'rabbitmq-api-password': rabbitmqApiPassword
  'rabbitmq-writer-password': rabbitmqWriterPassword
  'rabbitmq-aggregator-password': rabbitmqAggregatorPassword
  'rabbitmq-definitions': string(brokerDefinitions)
  // KEDA's RabbitMQ scaler reads the writer's queue length with the writer's own account.
  'rabbitmq-writer-url': 'amqp://${brokerUsers.writer}:${rabbitmqWriterPassword}@rabbitmq:5672/'
  'signing-key': signingKey
}

resource secret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = [for item in items(secrets): {
  parent: vault
  name: item.key
  properties: { value: item.value }
}]

// ---------------------------------------------------------------- images

resource registry 'Microsoft.ContainerRegistry/registries@2023-07-01' = {
  name: 'cr${suffix}'
  location: location
  tags: tags
  sku: { name: 'Basic' }
  properties: { adminUserEnabled: false }
}

var pullRole = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '7f951dda-4ed3-4680-a7ca-43fe172d538d')
resource pullsImages 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(registry.id, identity.id, pullRole)
  scope: registry
  properties: {
    principalId: identity.properties.principalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: pullRole
  }
}

// ---------------------------------------------------------------- MySQL

resource mysql 'Microsoft.DBforMySQL/flexibleServers@2023-12-30' = {
  name: 'mysql-${suffix}'
  location: location
  tags: tags
  sku: { name: 'Standard_B2s', tier: 'Burstable' }
  properties: {
    version: '8.0.21'
    administratorLogin: mysqlAdminUser
    administratorLoginPassword: mysqlAdminPassword
    storage: { storageSizeGB: 32, autoGrow: 'Enabled' }
    backup: { backupRetentionDays: 7, geoRedundantBackup: 'Disabled' }
    highAvailability: { mode: 'Disabled' }
  }
}

resource supermarketDatabase 'Microsoft.DBforMySQL/flexibleServers/databases@2023-12-30' = {
  parent: mysql
  name: database
  properties: { charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci' }
}

// Container Apps reach the server over Azure's network; a private network is the next step (docs/deployment.md).
resource fromAzure 'Microsoft.DBforMySQL/flexibleServers/firewallRules@2023-12-30' = {
  parent: mysql
  name: 'AllowAzureServices'
  properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' }
}

// ---------------------------------------------------------------- files: RabbitMQ's data, the aggregator's checkpoint

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: 'st${suffix}'
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: { name: 'Standard_LRS' }
  properties: {
    minimumTlsVersion: 'TLS1_2'
    allowBlobPublicAccess: false
    supportsHttpsTrafficOnly: true
  }
}

resource files 'Microsoft.Storage/storageAccounts/fileServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

var shares = [ 'rabbitmq-data', 'sales-checkpoints' ]
resource share 'Microsoft.Storage/storageAccounts/fileServices/shares@2023-05-01' = [for name in shares: {
  parent: files
  name: name
  properties: { shareQuota: 16 }
}]

// ---------------------------------------------------------------- Container Apps

resource environment 'Microsoft.App/managedEnvironments@2024-03-01' = {
  name: 'cae-${suffix}'
  location: location
  tags: tags
  properties: {
    appLogsConfiguration: {
      destination: 'log-analytics'
      logAnalyticsConfiguration: {
        customerId: logs.properties.customerId
        sharedKey: logs.listKeys().primarySharedKey
      }
    }
  }
}

resource environmentShare 'Microsoft.App/managedEnvironments/storages@2024-03-01' = [for (name, i) in shares: {
  parent: environment
  name: name
  properties: {
    azureFile: {
      accountName: storage.name
      accountKey: storage.listKeys().keys[0].value
      shareName: share[i].name
      accessMode: 'ReadWrite'
    }
  }
}]

var vaultSecret = '${vault.properties.vaultUri}secrets/'
var broker = [
  { name: 'Broker__Host', value: 'rabbitmq' }
  { name: 'Broker__Port', value: '5672' }
  { name: 'Broker__PersistentDelivery', value: 'true' }
  { name: 'Broker__QuorumQueues', value: 'true' }
  { name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', value: insights.properties.ConnectionString }
]

// One RabbitMQ node with its data on a file share: Container Apps give no stable node names for a cluster. Its
// configuration and definitions are secrets mounted as files.
module rabbitmq 'app.bicep' = {
  name: 'rabbitmq'
  dependsOn: [ readsSecrets, secret, environmentShare ]
  params: {
    name: 'rabbitmq'
    location: location
    tags: tags
    environmentId: environment.id
    identityId: identity.id
    image: 'rabbitmq:3.13-management'
    tcpPort: 5672
    secrets: [
      { name: 'definitions', keyVaultUrl: '${vaultSecret}rabbitmq-definitions', identity: identity.id }
      { name: 'supermarket-conf', value: 'load_definitions = /etc/supermarket-rabbitmq/definitions\nloopback_users = none\n' }
    ]
    env: [
      { name: 'RABBITMQ_CONFIG_FILES', value: '/etc/supermarket-rabbitmq/supermarket-conf' }
    ]
    volumes: [
      { name: 'data', storageType: 'AzureFile', storageName: 'rabbitmq-data' }
      { name: 'config', storageType: 'Secret', secrets: [ { secretRef: 'definitions', path: 'definitions' }, { secretRef: 'supermarket-conf', path: 'supermarket-conf' } ] }
    ]
    volumeMounts: [
      { volumeName: 'data', mountPath: '/var/lib/rabbitmq' }
      { volumeName: 'config', mountPath: '/etc/supermarket-rabbitmq' }
    ]
    minReplicas: 1
    maxReplicas: 1
  }
}

module api 'app.bicep' = {
  name: 'api'
  dependsOn: [ readsSecrets, secret, pullsImages ]
  params: {
    name: 'api'
    serviceName: 'api'
    location: location
    tags: tags
    environmentId: environment.id
    identityId: identity.id
    registry: registry.properties.loginServer
    httpPort: 8080
    probePort: 8081
    secrets: [
      { name: 'broker-password', keyVaultUrl: '${vaultSecret}rabbitmq-api-password', identity: identity.id }
      { name: 'signing-key', keyVaultUrl: '${vaultSecret}signing-key', identity: identity.id }
    ]
    env: concat(broker, [
      { name: 'Urls', value: 'http://0.0.0.0:8080' }
      { name: 'Management__Url', value: 'http://0.0.0.0:8081' }
      { name: 'Broker__Username', value: brokerUsers.api }
      { name: 'Broker__Password', secretRef: 'broker-password' }
      { name: 'Auth__RequireForCourseApi', value: 'true' }
      { name: 'Auth__SigningKey', secretRef: 'signing-key' }
      { name: 'SalesShards__Count', value: string(salesShards) }
    ])
    minReplicas: 1
    maxReplicas: 5
    scaleRules: [ { name: 'requests', http: { metadata: { concurrentRequests: '200' } } } ]
  }
}

// The schema brought up to date before the writers use it: the writer's image run with `migrate`, as the schema owner
// (the writers' own user may only read and write rows). The purchases-writer service's postdeploy hook points it at the
// image azd just deployed and runs it to the end (infra/hooks/migrate-schema.sh); a writer on a schema that is behind
// stops at start, so the new revision becomes ready once the job is done.
resource schemaMigration 'Microsoft.App/jobs@2024-03-01' = {
  name: 'schema-migration'
  location: location
  tags: tags
  dependsOn: [ readsSecrets, secret, pullsImages, supermarketDatabase, fromAzure ]
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identity.id}': {} }
  }
  properties: {
    environmentId: environment.id
    configuration: {
      triggerType: 'Manual'
      manualTriggerConfig: { parallelism: 1, replicaCompletionCount: 1 }
      replicaTimeout: 3600
      replicaRetryLimit: 0
      registries: [ { server: registry.properties.loginServer, identity: identity.id } ]
      secrets: [ { name: 'database-password', keyVaultUrl: '${vaultSecret}mysql-owner-password', identity: identity.id } ]
    }
    template: {
      containers: [
        {
          name: 'schema-migration'
          image: 'mcr.microsoft.com/k8se/quickstart:latest'
          args: [ 'migrate' ]
          env: [
            { name: 'Database__ConnectionString', value: databaseAt }
            { name: 'Database__User', value: 'supermarket_owner' }
            { name: 'Database__Password', secretRef: 'database-password' }
          ]
          resources: { cpu: json('0.5'), memory: '1Gi' }
        }
      ]
    }
  }
}

module writer 'app.bicep' = {
  name: 'purchases-writer'
  dependsOn: [ readsSecrets, secret, pullsImages, supermarketDatabase, fromAzure ]
  params: {
    name: 'purchases-writer'
    serviceName: 'purchases-writer'
    location: location
    tags: tags
    environmentId: environment.id
    identityId: identity.id
    registry: registry.properties.loginServer
    probePort: 8080
    secrets: [
      { name: 'broker-password', keyVaultUrl: '${vaultSecret}rabbitmq-writer-password', identity: identity.id }
      { name: 'broker-url', keyVaultUrl: '${vaultSecret}rabbitmq-writer-url', identity: identity.id }
      { name: 'database-password', keyVaultUrl: '${vaultSecret}mysql-writer-password', identity: identity.id }
    ]
    env: concat(broker, [
      { name: 'Urls', value: 'http://0.0.0.0:8080' }
      { name: 'Broker__Username', value: brokerUsers.writer }
      { name: 'Broker__Password', secretRef: 'broker-password' }
      { name: 'Database__ConnectionString', value: databaseAt }
      { name: 'Database__User', value: 'supermarket' }
      { name: 'Database__Password', secretRef: 'database-password' }
    ])
    minReplicas: 1
    maxReplicas: 4
    // More writers while purchases wait in their queue.
    scaleRules: [
      {
        name: 'backlog'
        custom: {
          type: 'rabbitmq'
          metadata: { queueName: writerQueue, mode: 'QueueLength', value: '5000' }
          auth: [ { secretRef: 'broker-url', triggerParameter: 'host' } ]
        }
      }
    ]
  }
}

// An app per sales shard, each holding its items' part of the matrix in memory, its checkpoint on the file share
// (one file a shard, which its replicas replace whole) surviving a restart. azd deploys a service's image to the one app
// tagged with the service's name: the first shard's app carries it, and the service's postdeploy hook
// (infra/hooks/sales-shards.sh) gives the other shards' apps the same image.
module aggregator 'app.bicep' = [for shard in range(1, salesShards): {
  name: 'sales-aggregator-${shard}'
  dependsOn: [ readsSecrets, secret, pullsImages, environmentShare, supermarketDatabase, fromAzure ]
  params: {
    name: shard == 1 ? 'sales-aggregator' : 'sales-aggregator-${shard}'
    serviceName: shard == 1 ? 'sales-aggregator' : ''
    location: location
    tags: tags
    environmentId: environment.id
    identityId: identity.id
    registry: registry.properties.loginServer
    probePort: 8080
    secrets: [
      { name: 'broker-password', keyVaultUrl: '${vaultSecret}rabbitmq-aggregator-password', identity: identity.id }
      { name: 'database-password', keyVaultUrl: '${vaultSecret}mysql-reader-password', identity: identity.id }
    ]
    env: concat(broker, [
      { name: 'Urls', value: 'http://0.0.0.0:8080' }
      { name: 'Broker__Username', value: brokerUsers.aggregator }
      { name: 'Broker__Password', secretRef: 'broker-password' }
      { name: 'Database__ConnectionString', value: databaseAt }
      { name: 'Database__User', value: 'supermarket_reader' }
      { name: 'Database__Password', secretRef: 'database-password' }
      { name: 'Database__MaxConnections', value: '2' }
      { name: 'Aggregator__CheckpointDirectory', value: '/var/lib/supermarket' }
      { name: 'SalesShards__Count', value: string(salesShards) }
      { name: 'Aggregator__Shard', value: string(shard) }
    ])
    volumes: [ { name: 'checkpoints', storageType: 'AzureFile', storageName: 'sales-checkpoints' } ]
    volumeMounts: [ { volumeName: 'checkpoints', mountPath: '/var/lib/supermarket' } ]
    minReplicas: salesShardReplicas
    maxReplicas: salesShardReplicas
  }
}]

output registryLoginServer string = registry.properties.loginServer
output keyVaultName string = vault.name
output mysqlHost string = mysql.properties.fullyQualifiedDomainName
output mysqlAdminUser string = mysqlAdminUser
output apiUrl string = api.outputs.url
