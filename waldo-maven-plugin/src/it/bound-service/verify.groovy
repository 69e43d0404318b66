// Every test of BoundServiceTest ran against the generated classes and passed.
def report = new File(basedir, 'target/surefire-reports/TEST-waldo.seam.BoundServiceTest.xml')
assert report.isFile()
def suite = new groovy.xml.XmlSlurper().parse(report)
assert suite.@tests.toInteger() == 4
assert suite.@failures.toInteger() == 0 && suite.@errors.toInteger() == 0 && suite.@skipped.toInteger() == 0
